# The fold scene's headless run reached its lifted phase (the test
# viewer_output_fold, examples/viewer/CMakeLists.txt):
#
#   cmake -DCHECK_RENDER=<check_render> -DDIR=<the run's --out> -DFRAME=<padded frame>
#         -DSIZE=<WxH> -DVERTICES=<n> -DTRIANGLES=<n> -P check_fold.cmake
#
# check_render first: the frame it names and the final picture decode to
# real pictures, and the OBJ re-reads as the cloth. Then the OBJ itself: the
# corner the scene lifts from 3 s to 1.2 m over 2 s is the highest particle,
# above 1.1 m, and nothing is under the floor (y = 0).

execute_process(
  COMMAND "${CHECK_RENDER}"
    --png "${DIR}/frame_${FRAME}.png" --size ${SIZE}
    --png "${DIR}/final.png" --size ${SIZE}
    --obj "${DIR}/cloth.obj" --vertices ${VERTICES} --triangles ${TRIANGLES}
  RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "check_render failed (${_rc})")
endif()

file(STRINGS "${DIR}/cloth.obj" _vertices REGEX "^v ")
set(_top -1000)
set(_bottom 1000)
foreach(_v IN LISTS _vertices)
  string(REPLACE " " ";" _v "${_v}")
  list(GET _v 2 _y)
  if(_y GREATER _top)
    set(_top ${_y})
  endif()
  if(_y LESS _bottom)
    set(_bottom ${_y})
  endif()
endforeach()
message(STATUS "the cloth spans y ${_bottom} to ${_top} m")
if(NOT _top GREATER 1.1)
  message(FATAL_ERROR "the lifted corner is at ${_top} m, not above 1.1 m: the lift did not happen")
endif()
if(_bottom LESS -0.001)
  message(FATAL_ERROR "a particle is ${_bottom} m under the floor")
endif()
