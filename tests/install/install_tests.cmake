# Tests of the installed package, as an outside project sees it:
#
#   install_prefix          cmake --install the build into a scratch prefix (fixture)
#   install_find_package    an outside CMake project: find_package(clothsim CONFIG REQUIRED)
#   install_pkgconfig       an outside program built with `pkg-config --cflags --libs clothsim`
#
# Included from tests/CMakeLists.txt. The drivers are the cmake -P scripts
# beside this file; everything they write stays inside the build tree.

if(NOT CLOTHSIM_INSTALL OR CMAKE_CROSSCOMPILING)
  return()
endif()

set(_clothsim_it_dir "${CMAKE_CURRENT_LIST_DIR}")
set(_clothsim_it_prefix "${PROJECT_BINARY_DIR}/install-test-prefix")
set(_clothsim_it_work "${PROJECT_BINARY_DIR}/install-test-work")

# Flags the consumers need to link against this build: the main build's own
# C and linker flags (e.g. a TSan preset) plus the sanitizers of CLOTHSIM_SANITIZE.
set(_clothsim_it_cflags "${CMAKE_C_FLAGS}")
set(_clothsim_it_ldflags "${CMAKE_EXE_LINKER_FLAGS}")
if(CLOTHSIM_SANITIZE)
  string(APPEND _clothsim_it_cflags " -fsanitize=address,undefined -fno-omit-frame-pointer")
  string(APPEND _clothsim_it_ldflags " -fsanitize=address,undefined")
endif()
string(STRIP "${_clothsim_it_cflags}" _clothsim_it_cflags)
string(STRIP "${_clothsim_it_ldflags}" _clothsim_it_ldflags)

get_target_property(_clothsim_it_type clothsim TYPE)
if(_clothsim_it_type STREQUAL "STATIC_LIBRARY")
  set(_clothsim_it_static ON)
else()
  set(_clothsim_it_static OFF)
endif()

add_test(NAME install_prefix
  COMMAND "${CMAKE_COMMAND}"
    "-DBUILD_DIR=${PROJECT_BINARY_DIR}"
    "-DPREFIX=${_clothsim_it_prefix}"
    "-DCONFIG=$<CONFIG>"
    -P "${_clothsim_it_dir}/install_prefix.cmake")
set_tests_properties(install_prefix PROPERTIES
  FIXTURES_SETUP clothsim_installed
  LABELS install
  TIMEOUT 120)

add_test(NAME install_find_package
  COMMAND "${CMAKE_COMMAND}"
    "-DPREFIX=${_clothsim_it_prefix}"
    "-DSOURCE_DIR=${_clothsim_it_dir}/find_package"
    "-DWORK_DIR=${_clothsim_it_work}/find_package"
    "-DCONFIG=$<CONFIG>"
    "-DGENERATOR=${CMAKE_GENERATOR}"
    "-DMAKE_PROGRAM=${CMAKE_MAKE_PROGRAM}"
    "-DC_COMPILER=${CMAKE_C_COMPILER}"
    "-DC_FLAGS=${_clothsim_it_cflags}"
    "-DLINKER_FLAGS=${_clothsim_it_ldflags}"
    "-DEXPECTED_VERSION=${PROJECT_VERSION}"
    "-DEXPECTED_STATIC=${_clothsim_it_static}"
    -P "${_clothsim_it_dir}/run_find_package.cmake")
set_tests_properties(install_find_package PROPERTIES
  FIXTURES_REQUIRED clothsim_installed
  LABELS install
  TIMEOUT 300)

add_test(NAME install_pkgconfig
  COMMAND "${CMAKE_COMMAND}"
    "-DPREFIX=${_clothsim_it_prefix}"
    "-DLIBDIR=${CMAKE_INSTALL_LIBDIR}"
    "-DSOURCE=${_clothsim_it_dir}/consumer.c"
    "-DWORK_DIR=${_clothsim_it_work}/pkgconfig"
    "-DC_COMPILER=${CMAKE_C_COMPILER}"
    "-DC_FLAGS=${_clothsim_it_cflags}"
    "-DLINKER_FLAGS=${_clothsim_it_ldflags}"
    "-DEXPECTED_VERSION=${PROJECT_VERSION}"
    "-DSTATIC=${_clothsim_it_static}"
    -P "${_clothsim_it_dir}/run_pkgconfig.cmake")
# A missing pkg-config shows as "Skipped", not as a pass: the driver exits 77
# on CMake >= 3.29 (cmake_language(EXIT)); older cmake -P cannot choose its exit
# code, so it also prints a marker that SKIP_REGULAR_EXPRESSION catches.
set_tests_properties(install_pkgconfig PROPERTIES
  FIXTURES_REQUIRED clothsim_installed
  LABELS install
  SKIP_RETURN_CODE 77
  SKIP_REGULAR_EXPRESSION "CLOTHSIM_TEST_SKIPPED:"
  TIMEOUT 300)

unset(_clothsim_it_dir)
unset(_clothsim_it_prefix)
unset(_clothsim_it_work)
unset(_clothsim_it_cflags)
unset(_clothsim_it_ldflags)
unset(_clothsim_it_type)
unset(_clothsim_it_static)
