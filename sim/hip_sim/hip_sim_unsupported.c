// sim/hip_sim/hip_sim_unsupported.c — HIP entries the runtime over the
// simulator exports but does not implement (hip_sim.h): each returns
// hipErrorNotSupported and names itself once on stderr, so a program that
// needs one fails visibly instead of computing a wrong answer. A program
// calling an entry that is not exported at all stops at the dynamic loader
// with "undefined symbol", which names it too; hip_sim_stubs.c (generated)
// adds every other entry Debian's libamdhip64.so.5 exports, so none is
// missing.
#include "sim/hip_sim/hip_sim_internal.h"

#pragma GCC diagnostic ignored "-Wunused-parameter"

RL_HIP_UNSUPPORTED(hipMemset2D, void* dst, size_t pitch, int value,
                   size_t width, size_t height)
RL_HIP_UNSUPPORTED(hipDeviceCanAccessPeer, int* can, int device, int peer)
RL_HIP_UNSUPPORTED(hipDeviceEnablePeerAccess, int peer, unsigned int flags)
RL_HIP_UNSUPPORTED(hipIpcGetMemHandle, hipIpcMemHandle_t* handle, void* ptr)
RL_HIP_UNSUPPORTED(hipIpcOpenMemHandle, void** ptr, hipIpcMemHandle_t handle,
                   unsigned int flags)
RL_HIP_UNSUPPORTED(hipMallocAsync, void** ptr, size_t size,
                   hipStream_t stream)
RL_HIP_UNSUPPORTED(hipFreeAsync, void* ptr, hipStream_t stream)
RL_HIP_UNSUPPORTED(hipGraphCreate, hipGraph_t* graph, unsigned int flags)
RL_HIP_UNSUPPORTED(hipGraphAddKernelNode, hipGraphNode_t* node,
                   hipGraph_t graph, const hipGraphNode_t* dependencies,
                   size_t count, const hipKernelNodeParams* params)
RL_HIP_UNSUPPORTED(hipPointerGetAttributes, hipPointerAttribute_t* attributes,
                   const void* ptr)
RL_HIP_UNSUPPORTED(hipDeviceSetCacheConfig, hipFuncCache_t config)
RL_HIP_UNSUPPORTED(hipDeviceSetSharedMemConfig, hipSharedMemConfig config)

// The entries whose header return type is not hipError_t.
RL_HIP_EXPORT struct hipChannelFormatDesc hipCreateChannelDesc(
    int x, int y, int z, int w, enum hipChannelFormatKind f) {
  struct hipChannelFormatDesc desc = {x, y, z, w, f};
  return desc;
}

// Every stream is on the one simulated device, 0.
RL_HIP_EXPORT int hipGetStreamDeviceId(hipStream_t stream) { return 0; }

// Not supported: NULL, as the real library answers an unknown id.
RL_HIP_EXPORT const char* hipApiName(uint32_t id) {
  rl_hip_unsupported_answer("hipApiName", "NULL");
  return NULL;
}

RL_HIP_EXPORT const char* hipKernelNameRef(const hipFunction_t f) {
  rl_hip_unsupported_answer("hipKernelNameRef", "NULL");
  return NULL;
}

RL_HIP_EXPORT const char* hipKernelNameRefByPtr(const void* host_function,
                                                hipStream_t stream) {
  rl_hip_unsupported_answer("hipKernelNameRefByPtr", "NULL");
  return NULL;
}
