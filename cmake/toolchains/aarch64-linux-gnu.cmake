# Cross-compile for 64-bit ARM Linux with Debian's cross compiler, and run
# the test programs under qemu-user. scripts/test uses it for its aarch64
# stage (bit-for-bit determinism on ARM: tests/test_golden):
#
#   apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
#   cmake -S . -B build/aarch64 \
#       -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake
#   cmake --build build/aarch64 && ctest --test-dir build/aarch64 -R '^test_golden$'
#
# No `dpkg --add-architecture arm64`: libc6-dev-arm64-cross (which apt installs
# with the compiler only when it takes recommended packages) puts the AArch64 C
# library under /usr/aarch64-linux-gnu, and qemu's -L points the emulated
# dynamic loader there. CMAKE_CROSSCOMPILING_EMULATOR makes a test added as
# add_test(COMMAND <target>) run as `qemu-aarch64 -L /usr/aarch64-linux-gnu <program>`.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(CLOTHSIM_CROSS_TRIPLE aarch64-linux-gnu)
set(CLOTHSIM_CROSS_SYSROOT /usr/${CLOTHSIM_CROSS_TRIPLE})

set(CMAKE_C_COMPILER ${CLOTHSIM_CROSS_TRIPLE}-gcc)

# Libraries and headers (libm, pthreads) from the cross C library only;
# programs (cmake, python3, doxygen) from the host.
set(CMAKE_FIND_ROOT_PATH ${CLOTHSIM_CROSS_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

set(CMAKE_CROSSCOMPILING_EMULATOR "qemu-aarch64;-L;${CLOTHSIM_CROSS_SYSROOT}")
