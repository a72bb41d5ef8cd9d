# The API fuzzer (tests/fuzz/fuzz_api.c), included from tests/CMakeLists.txt.
#
# Every build: fuzz_api_replay, the harness with a main() that feeds it the
# files of the seed corpus and of the regressions (inputs that once crashed),
# as the test fuzz_replay. No libFuzzer needed, any compiler.
#
# CLOTHSIM_BUILD_FUZZ=ON (clang only): fuzz_api, the libFuzzer program, with
# the library instrumented for coverage and built with ASan and UBSan.
#   cmake -S . -B build/fuzz -DCMAKE_C_COMPILER=clang -DCLOTHSIM_BUILD_FUZZ=ON
#   cmake --build build/fuzz --target fuzz_api
#   build/fuzz/tests/fuzz_api -max_total_time=60 build/fuzz/corpus tests/fuzz/corpus
# (scripts/test runs this, writing crash inputs to build/fuzz/crashes/). A
# crash leaves its input as crash-<sha1>: replay it with FUZZ_API_TRACE=1 fuzz_api_replay
# <file> to see every call, fix the bug, and commit the input to
# tests/fuzz/regressions/ under a name that says what it broke.
# tests/fuzz/make_corpus.py regenerates the seeds.
set(CLOTHSIM_FUZZ_DIR ${CMAKE_CURRENT_LIST_DIR})

add_executable(fuzz_api_replay ${CLOTHSIM_FUZZ_DIR}/fuzz_api.c)
target_link_libraries(fuzz_api_replay PRIVATE clothsim::clothsim)
set_target_properties(fuzz_api_replay PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
clothsim_target_warnings(fuzz_api_replay)
if(UNIX)
  target_link_libraries(fuzz_api_replay PRIVATE m)
endif()
add_test(NAME fuzz_replay
  COMMAND fuzz_api_replay ${CLOTHSIM_FUZZ_DIR}/corpus ${CLOTHSIM_FUZZ_DIR}/regressions)

if(CLOTHSIM_BUILD_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "CLOTHSIM_BUILD_FUZZ needs clang and its libFuzzer runtime "
                        "(-DCMAKE_C_COMPILER=clang; Debian: clang libclang-rt-14-dev)")
  endif()
  set(_clothsim_fuzz_san -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  # coverage feedback from the library, and the sanitizers inside it
  target_compile_options(clothsim PRIVATE -fsanitize=fuzzer-no-link ${_clothsim_fuzz_san})
  target_link_options(clothsim PUBLIC $<BUILD_INTERFACE:-fsanitize=address,undefined>)
  add_executable(fuzz_api ${CLOTHSIM_FUZZ_DIR}/fuzz_api.c)
  target_compile_definitions(fuzz_api PRIVATE CLOTHSIM_FUZZING)
  target_compile_options(fuzz_api PRIVATE -fsanitize=fuzzer ${_clothsim_fuzz_san})
  target_link_options(fuzz_api PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_libraries(fuzz_api PRIVATE clothsim::clothsim)
  set_target_properties(fuzz_api PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
  clothsim_target_warnings(fuzz_api)
  if(UNIX)
    target_link_libraries(fuzz_api PRIVATE m)
  endif()
endif()
