# Install rules for clothsim: headers, the library, the CMake package
# (clothsimTargets + clothsimConfig + clothsimConfigVersion) and clothsim.pc.
#
# Included by the top-level CMakeLists.txt when CLOTHSIM_INSTALL is ON, after
# the `clothsim` target exists and GNUInstallDirs has been included.

include(CMakePackageConfigHelpers)

set(CLOTHSIM_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/clothsim"
    CACHE STRING "Where clothsimConfig.cmake is installed, relative to the prefix")
mark_as_advanced(CLOTHSIM_INSTALL_CMAKEDIR)

# --- headers and library ------------------------------------------------------

install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/clothsim"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
  COMPONENT clothsim_Development
  FILES_MATCHING PATTERN "*.h")

install(TARGETS clothsim
  EXPORT clothsimTargets
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}"
    COMPONENT clothsim_Runtime
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
    COMPONENT clothsim_Runtime
    NAMELINK_COMPONENT clothsim_Development
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
    COMPONENT clothsim_Development)

# --- CMake package --------------------------------------------------------------

# A static libclothsim.a needs libm at the consumer's link; the target links
# `m` PRIVATE, which the export writes as $<LINK_ONLY:m>, so the imported target
# carries it. The config file only records how the library was built.
get_target_property(_clothsim_type clothsim TYPE)
if(_clothsim_type STREQUAL "STATIC_LIBRARY")
  set(CLOTHSIM_PACKAGE_STATIC ON)
else()
  set(CLOTHSIM_PACKAGE_STATIC OFF)
endif()

install(EXPORT clothsimTargets
  NAMESPACE clothsim::
  FILE clothsimTargets.cmake
  DESTINATION "${CLOTHSIM_INSTALL_CMAKEDIR}"
  COMPONENT clothsim_Development)

configure_package_config_file(
  "${PROJECT_SOURCE_DIR}/cmake/clothsimConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/clothsimConfig.cmake"
  INSTALL_DESTINATION "${CLOTHSIM_INSTALL_CMAKEDIR}")

# Same major version, same ABI (see base.h).
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/clothsimConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}"
  COMPATIBILITY SameMajorVersion)

install(FILES
    "${PROJECT_BINARY_DIR}/clothsimConfig.cmake"
    "${PROJECT_BINARY_DIR}/clothsimConfigVersion.cmake"
  DESTINATION "${CLOTHSIM_INSTALL_CMAKEDIR}"
  COMPONENT clothsim_Development)

# --- pkg-config -----------------------------------------------------------------

# The .pc file is relocatable: paths are written relative to its own directory
# (${pcfiledir}), so `cmake --install --prefix <dir>` and DESTDIR installs give
# a working file. Absolute GNUInstallDirs paths are used as they are.
set(_clothsim_pc_dir "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(CLOTHSIM_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH _clothsim_pc_up "/__prefix__/${_clothsim_pc_dir}" "/__prefix__")
  string(REGEX REPLACE "/$" "" _clothsim_pc_up "${_clothsim_pc_up}")
  set(CLOTHSIM_PC_PREFIX "\${pcfiledir}/${_clothsim_pc_up}")
endif()
foreach(_dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${_dir}}")
    set(CLOTHSIM_PC_${_dir} "${CMAKE_INSTALL_${_dir}}")
  else()
    set(CLOTHSIM_PC_${_dir} "\${prefix}/${CMAKE_INSTALL_${_dir}}")
  endif()
endforeach()

# The export macro in base.h must see CLOTHSIM_STATIC when the library is
# static (the CMake target carries it as an INTERFACE definition).
if(CLOTHSIM_PACKAGE_STATIC)
  set(CLOTHSIM_PC_CFLAGS "-DCLOTHSIM_STATIC")
else()
  set(CLOTHSIM_PC_CFLAGS "")
endif()
if(UNIX)
  set(CLOTHSIM_PC_LIBS_PRIVATE "-lm -pthread")
else()
  set(CLOTHSIM_PC_LIBS_PRIVATE "")
endif()
get_target_property(_clothsim_output_name clothsim OUTPUT_NAME)
if(NOT _clothsim_output_name)
  set(_clothsim_output_name clothsim)
endif()
set(CLOTHSIM_PC_LIBNAME "${_clothsim_output_name}")

configure_file(
  "${PROJECT_SOURCE_DIR}/pkgconfig/clothsim.pc.in"
  "${PROJECT_BINARY_DIR}/pkgconfig/clothsim.pc"
  @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/pkgconfig/clothsim.pc"
  DESTINATION "${_clothsim_pc_dir}"
  COMPONENT clothsim_Development)

unset(_clothsim_type)
unset(_clothsim_pc_dir)
unset(_clothsim_pc_up)
unset(_clothsim_output_name)
