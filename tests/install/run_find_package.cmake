# Configure, build and run tests/install/find_package against the installed
# prefix. Variables (all -D): PREFIX SOURCE_DIR WORK_DIR CONFIG GENERATOR
# MAKE_PROGRAM C_COMPILER C_FLAGS LINKER_FLAGS EXPECTED_VERSION EXPECTED_STATIC.
foreach(var PREFIX SOURCE_DIR WORK_DIR C_COMPILER EXPECTED_VERSION)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_find_package.cmake: ${var} is not set")
  endif()
endforeach()
if(NOT CONFIG)
  set(CONFIG Release)
endif()

function(run what)
  message(STATUS "${what}: ${ARGN}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc})")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")

set(configure "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${WORK_DIR}")
if(GENERATOR)
  list(APPEND configure -G "${GENERATOR}")
endif()
if(MAKE_PROGRAM)
  list(APPEND configure "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()
list(APPEND configure
  "-DCMAKE_C_COMPILER=${C_COMPILER}"
  "-DCMAKE_C_FLAGS=${C_FLAGS}"
  "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}"
  "-DCMAKE_BUILD_TYPE=${CONFIG}"
  "-DCMAKE_PREFIX_PATH=${PREFIX}"
  # Only the scratch prefix may satisfy find_package, never a system copy.
  "-DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF"
  "-DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF"
  "-DCLOTHSIM_TEST_PREFIX=${PREFIX}"
  "-DCLOTHSIM_EXPECTED_VERSION=${EXPECTED_VERSION}"
  "-DCLOTHSIM_EXPECTED_STATIC=${EXPECTED_STATIC}")

run("configure" ${configure})
run("build" "${CMAKE_COMMAND}" --build "${WORK_DIR}" --config "${CONFIG}")
run("run" "${CMAKE_CTEST_COMMAND}" --test-dir "${WORK_DIR}" -C "${CONFIG}" --output-on-failure)
