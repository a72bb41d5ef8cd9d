# The headless viewer's tests (issue 7). Included from
# examples/viewer/CMakeLists.txt when the viewer is built with OSMesa, so they
# exist only where the viewer does.
#
#   viewer_headless_SCENE  the viewer renders SCENE offscreen on a short
#                          schedule (the drape: its four corners let go
#                          together at 1 s, then it settles; the character:
#                          walks, runs from 1 s, is teleported at 2.5 s),
#                          writing PNG frames, the final picture and the OBJ
#   viewer_output_SCENE    check_render: those PNGs decode to real pictures
#                          (many colours, most pixels not background, the red
#                          cloth visible) and the OBJ re-reads with one vertex
#                          and one normal per particle and the cloth's triangles
#
# Under the sanitizers, LeakSanitizer is told to ignore Mesa's own leaks
# (tests/viewer/lsan.supp); leaks in clothsim or the viewer still fail.

add_executable(check_render "${CMAKE_CURRENT_LIST_DIR}/check_render.c")
target_link_libraries(check_render PRIVATE PNG::PNG)
set_target_properties(check_render PROPERTIES C_STANDARD 11 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
clothsim_target_warnings(check_render)
if(UNIX)
  target_link_libraries(check_render PRIVATE m)
endif()

set(_viewer_test_env "LP_NUM_THREADS=2")
if(CLOTHSIM_SANITIZE)
  list(APPEND _viewer_test_env
    "LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_LIST_DIR}/lsan.supp:print_suppressions=0")
endif()

# scene:frames at 30 per second:particles:triangles
set(_viewer_cases
  "drape:240:1024:1922"
  "curtain:60:1200:2262"
  "flag:120:384:690"
  "character:150:384:690")
foreach(_case IN LISTS _viewer_cases)
  string(REPLACE ":" ";" _case "${_case}")
  list(GET _case 0 _scene)
  list(GET _case 1 _frames)
  list(GET _case 2 _vertices)
  list(GET _case 3 _triangles)
  set(_dir "${CMAKE_CURRENT_BINARY_DIR}/viewer_out/${_scene}")
  math(EXPR _last_frame "${_frames} / 60 * 60")
  string(REGEX REPLACE "^([0-9])$" "000\\1" _padded "${_last_frame}")
  string(REGEX REPLACE "^([0-9][0-9])$" "00\\1" _padded "${_padded}")
  string(REGEX REPLACE "^([0-9][0-9][0-9])$" "0\\1" _padded "${_padded}")

  add_test(NAME viewer_headless_${_scene}
    COMMAND viewer --headless --scene ${_scene} --frames ${_frames} --size 320x240 --every 60
      --out "${_dir}")
  set_tests_properties(viewer_headless_${_scene} PROPERTIES
    ENVIRONMENT "${_viewer_test_env}"
    FIXTURES_SETUP viewer_${_scene}
    TIMEOUT 300
    LABELS "viewer")

  add_test(NAME viewer_output_${_scene}
    COMMAND check_render
      --png "${_dir}/frame_${_padded}.png" --size 320x240
      --png "${_dir}/final.png" --size 320x240
      --red 0.01
      --obj "${_dir}/cloth.obj" --vertices ${_vertices} --triangles ${_triangles})
  set_tests_properties(viewer_output_${_scene} PROPERTIES
    FIXTURES_REQUIRED viewer_${_scene}
    LABELS "viewer")
endforeach()
