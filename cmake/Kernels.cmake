# cmake/Kernels.cmake — the LLVM 19 toolchain used to build the HIP kernels
# in kernels/ into AMDGPU code objects, and the variables tests rely on.
#
# clang-19 is called by full path: /usr/bin/clang-19 would make the AMDGPU
# driver link with /usr/bin/ld.lld (lld 14 on Debian 12), which rejects code
# object v5 ("unknown abi version"); see research/debian_probe.md, gotcha 3.
# LLVM 19 is the first Debian 12 LLVM that knows gfx1151 and gfx1201.
#
# Sets (visible everywhere, before kernels/ and tests/ are configured):
#   RL_HIP_CLANG       full path of clang++ 19
#   RL_LLVM_READELF    full path of llvm-readelf 19
#   RL_KERNELS_DIR     ${CMAKE_BINARY_DIR}/kernels, where the .co files go
#   RL_KERNEL_TARGETS  the processors every kernel is built for
include_guard(GLOBAL)

set(RL_LLVM_ROOT "/usr/lib/llvm-19" CACHE PATH "LLVM 19 install prefix")

find_program(RL_HIP_CLANG NAMES clang++ clang++-19
  HINTS "${RL_LLVM_ROOT}/bin" NO_DEFAULT_PATH)
find_program(RL_LLVM_READELF NAMES llvm-readelf llvm-readelf-19
  HINTS "${RL_LLVM_ROOT}/bin" NO_DEFAULT_PATH)
if(NOT RL_HIP_CLANG OR NOT RL_LLVM_READELF)
  message(FATAL_ERROR
    "redline needs LLVM 19 to build its AMDGPU kernels: clang++ and "
    "llvm-readelf were looked for in ${RL_LLVM_ROOT}/bin "
    "(found clang++: '${RL_HIP_CLANG}', llvm-readelf: '${RL_LLVM_READELF}'). "
    "Install them with: apt-get install -y --no-install-recommends "
    "clang-19 llvm-19 lld-19, or pass -DRL_LLVM_ROOT=<prefix>.")
endif()

set(RL_KERNELS_DIR "${CMAKE_BINARY_DIR}/kernels"
  CACHE INTERNAL "Directory of the built AMDGPU code objects")
set(RL_KERNEL_TARGETS gfx1100 gfx1151 gfx1201
  CACHE INTERNAL "Processors the kernels are built for (code object v5)")
