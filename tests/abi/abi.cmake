# The shared library's exported symbols and ABI, included from tests/CMakeLists.txt.
#
# abi_symbols (every shared build): `nm -D --defined-only` lists only cloth_*
#   symbols, and every function a public header declares with CLOTH_API.
# abi_compat (shared builds with debug information, abidw and abidiff from
#   Debian's abigail-tools): the library against the committed baseline
#   tests/abi/clothsim.abi; removing or changing anything fails, adding passes.
#   scripts/abi-baseline regenerates the baseline after an intended change.
if(NOT BUILD_SHARED_LIBS OR NOT CMAKE_SYSTEM_NAME STREQUAL "Linux")
  return()
endif()

set(CLOTHSIM_ABI_DIR ${CMAKE_CURRENT_LIST_DIR})
add_test(NAME abi_symbols
  COMMAND ${CMAKE_COMMAND} -DNM=${CMAKE_NM} -DLIB=$<TARGET_FILE:clothsim>
          -DHEADERS=${PROJECT_SOURCE_DIR}/include/clothsim -P ${CLOTHSIM_ABI_DIR}/check_symbols.cmake)

find_program(CLOTHSIM_ABIDW abidw)
find_program(CLOTHSIM_ABIDIFF abidiff)
if(CLOTHSIM_ABIDW AND CLOTHSIM_ABIDIFF AND CMAKE_BUILD_TYPE MATCHES "^(RelWithDebInfo|Debug)$")
  add_test(NAME abi_compat
    COMMAND ${CMAKE_COMMAND} -DABIDW=${CLOTHSIM_ABIDW} -DABIDIFF=${CLOTHSIM_ABIDIFF}
            -DLIB=$<TARGET_FILE:clothsim> -DHEADERS=${PROJECT_SOURCE_DIR}/include/clothsim
            -DBASELINE=${CLOTHSIM_ABI_DIR}/clothsim.abi -DSUPPRESSIONS=${CLOTHSIM_ABI_DIR}/clothsim.abignore
            -DWORK=${CMAKE_CURRENT_BINARY_DIR}/abi -P ${CLOTHSIM_ABI_DIR}/check_abi.cmake)
  set_tests_properties(abi_compat PROPERTIES SKIP_REGULAR_EXPRESSION "ABI check skipped")
endif()
