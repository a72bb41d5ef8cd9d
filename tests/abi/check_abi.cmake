# cmake -DABIDW=abidw -DABIDIFF=abidiff -DLIB=libclothsim.so -DHEADERS=include/clothsim
#       -DBASELINE=tests/abi/clothsim.abi -DSUPPRESSIONS=tests/abi/clothsim.abignore
#       -DWORK=<scratch dir> -P check_abi.cmake
#
# The built library against the committed ABI baseline. Adding functions,
# enum constants, or fields at the end of a struct_size desc passes; removing
# or changing a function, a variable, a type that crosses the API or an enum
# value fails, unless the major version in base.h differs from the
# baseline's SONAME (a release that may break the ABI: regenerate the
# baseline with scripts/abi-baseline).
#
# Both sides are abidw corpora of the public headers' types only
# (--drop-private-types): the private struct behind cloth_t may change at
# will, and a change to a public type that the private struct also holds is
# then reported through the public function that takes it.
cmake_minimum_required(VERSION 3.16)
file(STRINGS ${HEADERS}/base.h major_line REGEX "^#define CLOTHSIM_VERSION_MAJOR [0-9]+$")
string(REGEX MATCH "[0-9]+$" major "${major_line}")
file(READ ${BASELINE} head LIMIT 400)
if(NOT head MATCHES "soname='libclothsim\\.so\\.([0-9]+)'")
  message(FATAL_ERROR "${BASELINE}: no libclothsim SONAME in the baseline")
endif()
set(base_major ${CMAKE_MATCH_1})
if(NOT major STREQUAL base_major)
  message("ABI check skipped: major version ${major} in base.h, the baseline is of major ${base_major}; "
          "incompatible changes are allowed; run scripts/abi-baseline before the release")
  return()
endif()

file(MAKE_DIRECTORY ${WORK})
set(current ${WORK}/current.abi)
execute_process(COMMAND ${ABIDW} --headers-dir ${HEADERS} --drop-private-types --no-corpus-path
                        --no-comp-dir-path --no-show-locs --type-id-style hash --out-file ${current} ${LIB}
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "abidw failed (${rc}) on ${LIB}: ${err}\n(is it built with debug information?)")
endif()
execute_process(COMMAND ${ABIDIFF} --suppressions ${SUPPRESSIONS} ${BASELINE} ${current}
  RESULT_VARIABLE rc OUTPUT_VARIABLE report ERROR_VARIABLE err)

# abidiff's exit status is a bit set: 1 error, 2 usage error, 4 ABI change,
# 8 incompatible change. Bit 8 is only set for removed symbols, so a changed
# function or type (bit 4) is told from an addition (also bit 4) by the
# report's summary lines.
math(EXPR error "${rc} & 3")
math(EXPR incompatible "${rc} & 8")
set(changed 0)
foreach(kind Functions Variables)
  if(report MATCHES "${kind} changes summary: ([0-9]+) Removed, ([0-9]+) Changed")
    math(EXPR changed "${changed} + ${CMAKE_MATCH_1} + ${CMAKE_MATCH_2}")
  endif()
endforeach()
if(report MATCHES "([0-9]+) Removed function symbols?")
  math(EXPR changed "${changed} + ${CMAKE_MATCH_1}")
endif()
if(NOT error EQUAL 0)
  message(FATAL_ERROR "abidiff failed (${rc}): ${err}\n${report}")
endif()
if(NOT incompatible EQUAL 0 OR NOT changed EQUAL 0)
  message(FATAL_ERROR "incompatible ABI change against ${BASELINE} (abidiff status ${rc}):\n${report}\n"
                      "Either undo it, or bump CLOTHSIM_VERSION_MAJOR in base.h for a release that "
                      "breaks the ABI (then run scripts/abi-baseline and mark it in CHANGELOG.md).")
endif()
if(rc EQUAL 0)
  message(STATUS "ABI identical to the baseline")
else()
  message(STATUS "ABI compatible with the baseline (additions only):\n${report}")
endif()
