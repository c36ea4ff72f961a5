// Build-time check that Debian's runtime headers the real backends will be
// type-checked against are present and usable from C11: ROCr (hsa/hsa.h,
// hsa/hsa_ext_amd.h), libdrm_amdgpu (amdgpu.h) and HIP
// (hip/hip_runtime_api.h). Nothing here is linked into redline; the
// backends load their libraries with dlopen.
#include <stddef.h>
#include <stdint.h>

#include <amdgpu.h>
#include <hip/hip_runtime_api.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "aql/aql_packet.h"

// The AQL header layout redline writes everywhere (aql/aql_packet.h) is the
// one hsa.h defines.
_Static_assert((int)RL_AQL_PACKET_TYPE_KERNEL_DISPATCH ==
                   (int)HSA_PACKET_TYPE_KERNEL_DISPATCH,
               "aql_packet.h kernel-dispatch type differs from hsa.h");
_Static_assert((int)RL_AQL_PACKET_TYPE_BARRIER_AND ==
                   (int)HSA_PACKET_TYPE_BARRIER_AND,
               "aql_packet.h barrier-AND type differs from hsa.h");
_Static_assert((int)RL_AQL_PACKET_TYPE_VENDOR_SPECIFIC ==
                   (int)HSA_PACKET_TYPE_VENDOR_SPECIFIC,
               "aql_packet.h vendor type differs from hsa.h");
_Static_assert((int)RL_AQL_HEADER_BARRIER_SHIFT ==
                   (int)HSA_PACKET_HEADER_BARRIER,
               "aql_packet.h barrier bit differs from hsa.h");
_Static_assert((int)RL_AQL_HEADER_ACQUIRE_SHIFT ==
                   (int)HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE,
               "aql_packet.h acquire scope differs from hsa.h");
_Static_assert((int)RL_AQL_HEADER_RELEASE_SHIFT ==
                   (int)HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE,
               "aql_packet.h release scope differs from hsa.h");
_Static_assert((int)RL_AQL_FENCE_SCOPE_SYSTEM == (int)HSA_FENCE_SCOPE_SYSTEM &&
                   (int)RL_AQL_FENCE_SCOPE_AGENT == (int)HSA_FENCE_SCOPE_AGENT,
               "aql_packet.h fence scopes differ from hsa.h");

// The AQL packet formats are 64 bytes (HSA Platform System Architecture
// Specification 1.2, section 2.9; hsa.h).
_Static_assert(sizeof(hsa_kernel_dispatch_packet_t) == 64,
               "AQL kernel dispatch packet is 64 bytes");
_Static_assert(sizeof(hsa_barrier_and_packet_t) == 64,
               "AQL barrier-AND packet is 64 bytes");
_Static_assert(sizeof(hsa_barrier_or_packet_t) == 64,
               "AQL barrier-OR packet is 64 bytes");
_Static_assert(offsetof(hsa_kernel_dispatch_packet_t, kernel_object) == 32,
               "kernel_object at byte 32");
_Static_assert(offsetof(hsa_kernel_dispatch_packet_t, completion_signal) == 56,
               "completion_signal at byte 56");

// One exported symbol so the object is not empty.
int rl_runtime_headers_checked(void);
int rl_runtime_headers_checked(void) {
  return (int)sizeof(struct amdgpu_bo_alloc_request) + (int)hipSuccess;
}
