# Run the Node example (examples/node/drape.js) as a test, from ctest:
#
#   cmake -DNODE=node -DNPM=npm -DSOURCE_DIR=<repo>/examples/node -DWORK_DIR=<build>/node_example
#         -DLIBRARY=<libclothsim.so> [-DSKIP_REASON=...] -P run_node_example.cmake
#
# Copies the example into WORK_DIR (node_modules never lands in the source tree),
# installs the locked dependencies with `npm ci` when package-lock.json changed
# since the last install, then runs drape.js twice (default integrator; PBD with a
# JavaScript wind callback) and node_binding_test.js (beside this file) with
# CLOTHSIM_LIBRARY set. Fails on a non-zero exit or a missing final report. With SKIP_REASON it prints
# "SKIPPED: ..." and does nothing (ctest's SKIP_REGULAR_EXPRESSION).
cmake_minimum_required(VERSION 3.16)

if(SKIP_REASON)
  message("SKIPPED: ${SKIP_REASON}")
  return()
endif()
foreach(var NODE NPM SOURCE_DIR WORK_DIR LIBRARY)
  if(NOT ${var})
    message(FATAL_ERROR "run_node_example.cmake needs -D${var}=...")
  endif()
endforeach()

file(MAKE_DIRECTORY "${WORK_DIR}")
foreach(file package.json package-lock.json clothsim.js drape.js)
  configure_file("${SOURCE_DIR}/${file}" "${WORK_DIR}/${file}" COPYONLY)
endforeach()
configure_file("${CMAKE_CURRENT_LIST_DIR}/node_binding_test.js" "${WORK_DIR}/node_binding_test.js" COPYONLY)

file(SHA256 "${SOURCE_DIR}/package-lock.json" lock_hash)
set(stamp "${WORK_DIR}/node_modules/.clothsim-lock-sha256")
set(installed "")
if(EXISTS "${stamp}")
  file(READ "${stamp}" installed)
endif()
if(NOT installed STREQUAL lock_hash OR NOT EXISTS "${WORK_DIR}/node_modules/koffi/package.json")
  message("npm ci --no-audit --no-fund in ${WORK_DIR}")
  execute_process(
    COMMAND "${NPM}" ci --no-audit --no-fund
    WORKING_DIRECTORY "${WORK_DIR}"
    RESULT_VARIABLE rc
    OUTPUT_VARIABLE out
    ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "npm ci failed (${rc}) in ${WORK_DIR}; it needs the npm registry.\n${out}\n${err}")
  endif()
  file(WRITE "${stamp}" "${lock_hash}")
endif()

set(ENV{CLOTHSIM_LIBRARY} "${LIBRARY}")

# run_node(SCRIPT EXPECTED_REGEX ARGS...): run it, echo its output, fail unless
# it exits 0 and prints something matching EXPECTED_REGEX.
function(run_node script expected)
  execute_process(
    COMMAND "${NODE}" ${script} ${ARGN}
    WORKING_DIRECTORY "${WORK_DIR}"
    RESULT_VARIABLE rc
    OUTPUT_VARIABLE out
    ERROR_VARIABLE err)
  list(JOIN ARGN " " args)
  message("$ node ${script} ${args}\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "node ${script} ${args} exited with ${rc}")
  endif()
  if(NOT out MATCHES "${expected}")
    message(FATAL_ERROR "node ${script} ${args} did not print '${expected}'")
  endif()
endfunction()

run_node(drape.js "deepest penetration of sphere or floor")
run_node(drape.js "deepest penetration of sphere or floor" pbd --wind)
run_node(node_binding_test.js "[0-9]+ passed, 0 failed")
