# cmake -DBUILD_DIR=... -DPREFIX=... [-DCONFIG=...] -P install_prefix.cmake
# Install the build tree into a fresh PREFIX (the fixture of the consumer tests).
foreach(var BUILD_DIR PREFIX)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "install_prefix.cmake: ${var} is not set")
  endif()
endforeach()

# Start clean, so that files of an earlier shared/static build cannot satisfy
# the consumers.
file(REMOVE_RECURSE "${PREFIX}")

set(cmd "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}")
if(CONFIG)
  list(APPEND cmd --config "${CONFIG}")
endif()
message(STATUS "Running: ${cmd}")
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc})")
endif()

foreach(f include/clothsim/clothsim.h include/clothsim/base.h)
  if(NOT EXISTS "${PREFIX}/${f}")
    message(FATAL_ERROR "installed tree lacks ${f}")
  endif()
endforeach()
file(GLOB_RECURSE configs "${PREFIX}/*/clothsimConfig.cmake")
file(GLOB_RECURSE pcs "${PREFIX}/*/clothsim.pc")
if(NOT configs OR NOT pcs)
  message(FATAL_ERROR "installed tree lacks clothsimConfig.cmake or clothsim.pc")
endif()
message(STATUS "Installed into ${PREFIX}")
