// tools/hipcc/oclc_isa_version.c — the one constant the ROCm device
// libraries (ockl, ocml) read to learn which processor they are linked for:
// __oclc_ISA_version = major * 1000 + minor * 100 + stepping of the gfx name
// (gfx1100 -> 11000, gfx1151 -> 11501, gfx1201 -> 12001).
//
// Debian's rocm-device-libs 5.2 ships oclc_isa_version_<N>.bc files up to
// gfx1036 only; redline-hipcc builds the gfx11/gfx12 ones from this file,
// once per processor, with -DRL_ISA_VERSION=<value>. Sources: the ROCm
// device-libs README ("oclc_isa_version_XYZ.bc" control libraries, one per
// processor, selected by the driver) and the LLVM AMDGPU processor table
// (https://llvm.org/docs/AMDGPUUsage.html#processors) for the gfx names and
// their major/minor/stepping.
//
// Compiled with: clang-19 -x c --target=amdgcn-amd-amdhsa -nogpulib
//   -emit-llvm -c -DRL_ISA_VERSION=11000 (no -mcpu: the file carries no
//   processor attributes, like the Debian control libraries).
#ifndef RL_ISA_VERSION
#error "RL_ISA_VERSION must be defined (e.g. -DRL_ISA_VERSION=11000)"
#endif

__attribute__((visibility("protected")))
const __attribute__((address_space(4))) int __oclc_ISA_version =
    RL_ISA_VERSION;
