# Build tests/install/consumer.c with the flags `pkg-config clothsim`
# gives for the installed prefix, then run it. Variables (all -D): PREFIX
# LIBDIR SOURCE WORK_DIR C_COMPILER C_FLAGS LINKER_FLAGS EXPECTED_VERSION STATIC.
foreach(var PREFIX LIBDIR SOURCE WORK_DIR C_COMPILER EXPECTED_VERSION)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_pkgconfig.cmake: ${var} is not set")
  endif()
endforeach()

find_program(PKG_CONFIG NAMES pkg-config pkgconf)
if(NOT PKG_CONFIG)
  # Shown as "Skipped" by ctest through SKIP_REGULAR_EXPRESSION.
  message("CLOTHSIM_TEST_SKIPPED: pkg-config is not installed (apt-get install pkg-config)")
  if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.29)
    cmake_language(EXIT 77) # matches SKIP_RETURN_CODE
  endif()
  return()
endif()

# run(<what> <out_var or ""> <command...>): run, stop on failure; keep the
# standard output in <out_var> when one is named, else let it through.
function(run what out_var)
  message(STATUS "${what}: ${ARGN}")
  if(out_var)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc
                    OUTPUT_VARIABLE out OUTPUT_STRIP_TRAILING_WHITESPACE)
    set(${out_var} "${out}" PARENT_SCOPE)
  else()
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  endif()
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc})")
  endif()
endfunction()

if(IS_ABSOLUTE "${LIBDIR}")
  set(pc_dir "${LIBDIR}/pkgconfig")
else()
  set(pc_dir "${PREFIX}/${LIBDIR}/pkgconfig")
endif()
# PKG_CONFIG_LIBDIR replaces the default search path, so only the scratch
# prefix can answer (clothsim.pc requires no other package).
set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
set(ENV{PKG_CONFIG_LIBDIR} "${pc_dir}")
message(STATUS "PKG_CONFIG_PATH=${pc_dir}")

run("pkg-config --modversion" version "${PKG_CONFIG}" --modversion clothsim)
if(NOT version STREQUAL EXPECTED_VERSION)
  message(FATAL_ERROR "pkg-config reports clothsim ${version}, expected ${EXPECTED_VERSION}")
endif()

run("pkg-config --variable=libdir" libdir "${PKG_CONFIG}" --variable=libdir clothsim)
get_filename_component(libdir_real "${libdir}" REALPATH)
get_filename_component(prefix_real "${PREFIX}" REALPATH)
string(FIND "${libdir_real}/" "${prefix_real}/" at)
if(NOT at EQUAL 0)
  message(FATAL_ERROR "clothsim.pc libdir ${libdir} is not inside ${PREFIX}")
endif()

set(query "${PKG_CONFIG}" --cflags --libs)
if(STATIC)
  list(APPEND query --static)
endif()
run("pkg-config --cflags --libs" flags ${query} clothsim)
message(STATUS "pkg-config flags: ${flags}")
if(STATIC AND NOT flags MATCHES "-DCLOTHSIM_STATIC")
  message(FATAL_ERROR "a static clothsim.pc must add -DCLOTHSIM_STATIC to Cflags")
endif()
separate_arguments(flags UNIX_COMMAND "${flags}")
separate_arguments(cflags UNIX_COMMAND "${C_FLAGS}")
separate_arguments(ldflags UNIX_COMMAND "${LINKER_FLAGS}")

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(exe "${WORK_DIR}/clothsim_pkgconfig_consumer")
# The headers must compile cleanly in a strict C11 consumer.
run("compile" "" "${C_COMPILER}" ${cflags} -std=c11 -Wall -Wextra -Wpedantic -Werror
    "${SOURCE}" -o "${exe}" ${flags} ${ldflags} "-Wl,-rpath,${libdir_real}")
run("run" "" "${exe}")
