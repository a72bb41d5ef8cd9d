# FFI tests (issue 7), included from tests/CMakeLists.txt:
#
#   python_binding_numpy     tests/python/test_clothsim.py with numpy (skipped without it)
#   python_binding_no_numpy  the same with CLOTHSIM_NO_NUMPY=1 (lists of tuples)
#   python_example_drape     examples/python/drape.py
#   node_example_drape       examples/node/drape.js through koffi (npm ci first)
#   header_hygiene           tests/ffi/check_headers.py: the public headers parsed by
#                            pycparser, the Python binding checked against them, and
#                            both bindings checked to declare every function and
#                            callback type (examples/node/clothsim.js by its prototypes)
#
# The Python and Node tests load the shared library, so with a static library
# (or sanitizers, whose runtimes an interpreter does not preload) they are
# registered but report themselves skipped, saying why. Tests whose tools are
# missing (python3, node, npm, numpy, pycparser) are skipped the same way or,
# for node/npm, not registered; configure prints which.

find_package(Python3 COMPONENTS Interpreter QUIET)

# The first interpreter that can import `module`: FindPython3's, then the
# system one. Debian's python3-numpy and python3-pycparser install for
# /usr/bin/python3 only, which a pyenv or venv python3 earlier on PATH does not see.
function(clothsim_python_with module out_var)
  set(candidates "")
  if(Python3_Interpreter_FOUND)
    list(APPEND candidates "${Python3_EXECUTABLE}")
  endif()
  foreach(py /usr/bin/python3 /usr/local/bin/python3)
    if(EXISTS "${py}")
      list(APPEND candidates "${py}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES candidates)
  foreach(py IN LISTS candidates)
    execute_process(COMMAND "${py}" -c "import ${module}" RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
    if(rc EQUAL 0)
      set(${out_var} "${py}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out_var} "" PARENT_SCOPE)
endfunction()

set(_ffi_skip "")
get_target_property(_ffi_lib_type clothsim TYPE)
if(NOT _ffi_lib_type STREQUAL "SHARED_LIBRARY")
  set(_ffi_skip "clothsim is a static library here (BUILD_SHARED_LIBS=OFF): nothing for ctypes or koffi to load")
elseif(CLOTHSIM_SANITIZE)
  set(_ffi_skip "clothsim is built with sanitizers: an interpreter cannot load it without preloading their runtimes")
endif()

set(_ffi_python "")
if(Python3_Interpreter_FOUND)
  set(_ffi_python "${Python3_EXECUTABLE}")
endif()
clothsim_python_with(numpy _ffi_python_numpy)
clothsim_python_with(pycparser _ffi_python_pycparser)
if(NOT _ffi_python)
  set(_ffi_python "${_ffi_python_numpy}")
endif()

set(_ffi_env
  "CLOTHSIM_LIBRARY=$<TARGET_FILE:clothsim>"
  "PYTHONPATH=${PROJECT_SOURCE_DIR}/python"
  "PYTHONDONTWRITEBYTECODE=1") # keep __pycache__ out of the source tree
if(_ffi_skip)
  list(APPEND _ffi_env "CLOTHSIM_FFI_SKIP=${_ffi_skip}")
endif()

# --- Python binding -----------------------------------------------------------------
if(_ffi_python)
  set(_ffi_numpy_python "${_ffi_python_numpy}")
  if(NOT _ffi_numpy_python)
    set(_ffi_numpy_python "${_ffi_python}") # reports itself skipped: no numpy
    message(STATUS "clothsim: no python3 can import numpy: python_binding_numpy will be skipped (apt-get install python3-numpy)")
  endif()
  add_test(NAME python_binding_numpy
    COMMAND "${_ffi_numpy_python}" "${PROJECT_SOURCE_DIR}/tests/python/test_clothsim.py")
  set_tests_properties(python_binding_numpy PROPERTIES
    ENVIRONMENT "${_ffi_env};CLOTHSIM_EXPECT_NUMPY=1"
    SKIP_RETURN_CODE 77
    LABELS "ffi;python")

  add_test(NAME python_binding_no_numpy
    COMMAND "${_ffi_python}" "${PROJECT_SOURCE_DIR}/tests/python/test_clothsim.py")
  set_tests_properties(python_binding_no_numpy PROPERTIES
    ENVIRONMENT "${_ffi_env};CLOTHSIM_NO_NUMPY=1;CLOTHSIM_EXPECT_NUMPY=0"
    SKIP_RETURN_CODE 77
    LABELS "ffi;python")

  # The example exits 1 when the cloth ends inside a collider.
  if(_ffi_skip)
    add_test(NAME python_example_drape
      COMMAND "${_ffi_python}" -c "print('SKIPPED: ${_ffi_skip}')")
    set_tests_properties(python_example_drape PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED:")
  else()
    add_test(NAME python_example_drape
      COMMAND "${_ffi_python}" "${PROJECT_SOURCE_DIR}/examples/python/drape.py")
  endif()
  set_tests_properties(python_example_drape PROPERTIES
    ENVIRONMENT "${_ffi_env}"
    PASS_REGULAR_EXPRESSION "deepest penetration of sphere or floor|SKIPPED:"
    LABELS "ffi;python")
else()
  message(STATUS "clothsim: python3 not found: the Python binding tests are not registered")
endif()

# --- Node example through koffi --------------------------------------------------------
find_program(CLOTHSIM_NODE NAMES node nodejs)
find_program(CLOTHSIM_NPM NAMES npm)
if(CLOTHSIM_NODE AND CLOTHSIM_NPM)
  add_test(NAME node_example_drape
    COMMAND "${CMAKE_COMMAND}"
      "-DNODE=${CLOTHSIM_NODE}"
      "-DNPM=${CLOTHSIM_NPM}"
      "-DSOURCE_DIR=${PROJECT_SOURCE_DIR}/examples/node"
      "-DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/node_example"
      "-DLIBRARY=$<TARGET_FILE:clothsim>"
      "-DSKIP_REASON=${_ffi_skip}"
      -P "${CMAKE_CURRENT_SOURCE_DIR}/ffi/run_node_example.cmake")
  set_tests_properties(node_example_drape PROPERTIES
    SKIP_REGULAR_EXPRESSION "SKIPPED:"
    TIMEOUT 600
    LABELS "ffi;node")
else()
  message(STATUS "clothsim: node or npm not found: node_example_drape is not registered")
endif()

# --- Header hygiene for binding generators ------------------------------------------------
if(_ffi_python_pycparser)
  add_test(NAME header_hygiene
    COMMAND "${_ffi_python_pycparser}" "${CMAKE_CURRENT_SOURCE_DIR}/ffi/check_headers.py"
      --cc "${CMAKE_C_COMPILER}"
      --include "${PROJECT_SOURCE_DIR}/include"
      --binding "${PROJECT_SOURCE_DIR}/python"
      --node "${PROJECT_SOURCE_DIR}/examples/node/clothsim.js")
else()
  message(STATUS "clothsim: no python3 can import pycparser: header_hygiene will be skipped (apt-get install python3-pycparser)")
  add_test(NAME header_hygiene
    COMMAND "${CMAKE_COMMAND}" -E echo
      "SKIPPED: no python3 can import pycparser (apt-get install python3-pycparser)")
endif()
set_tests_properties(header_hygiene PROPERTIES
  ENVIRONMENT "PYTHONDONTWRITEBYTECODE=1"
  SKIP_RETURN_CODE 77
  SKIP_REGULAR_EXPRESSION "SKIPPED:"
  LABELS "ffi")
