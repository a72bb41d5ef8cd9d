# Warning flags for clothsim's own targets (never forced on a parent project).
function(clothsim_target_warnings target)
  if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE
      -Wall -Wextra -Wpedantic -Wconversion -Wshadow -Wstrict-prototypes
      -Wmissing-prototypes -Wdouble-promotion)
    if(CLOTHSIM_WARNINGS_AS_ERRORS)
      target_compile_options(${target} PRIVATE -Werror)
    endif()
  elseif(MSVC)
    target_compile_options(${target} PRIVATE /W4 $<$<BOOL:${CLOTHSIM_WARNINGS_AS_ERRORS}>:/WX>)
  endif()
endfunction()
