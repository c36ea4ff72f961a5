// sim/hip_sim/hip_sim_attribute.c — hipDeviceGetAttribute over the
// simulated device (docs/hip-runtime.md, "Device attributes"). Every
// attribute of HIP 5.2's hipDeviceAttribute_t is answered:
//   - the fields hipGetDeviceProperties reports, from the same numbers
//     (rl_hip_fill_properties), so the two never disagree;
//   - textures (hip_sim_texture.c): ImageSupport 1, the 1-D and 2-D sizes
//     hipGetDeviceProperties reports (16384, the descriptor's 14-bit
//     fields);
//   - what the runtime does not provide, as 0: surfaces, 3-D, cube,
//     layered, mipmapped, gather and linear-memory textures, cooperative
//     launches, stream wait-value operations, memory pools,
//     PCI location, preemption, peer boards;
//   - fixed facts of the RDNA 3/3.5/4 boards redline simulates (gfx1100,
//     gfx1151, gfx1201): FP64 at 1/32 of FP32, 1024 threads per block,
//     64 KiB of registers per block and compute unit;
//   - attributes whose value is not an int (hipDeviceAttributeName, Uuid,
//     Luid, MaxThreadsDim, GcnArchName, Arch, the HDP flush registers) are
//     hipErrorInvalidValue: read them with hipDeviceGetName,
//     hipDeviceGetUuid or hipGetDeviceProperties.
// An attribute outside the enumeration is hipErrorInvalidValue.
#include <limits.h>

#include "sim/hip_sim/hip_sim_internal.h"

// |bytes| as the int an attribute holds (total memory saturates).
static int rl_int(size_t bytes) { return bytes > INT_MAX ? INT_MAX : (int)bytes; }

// Answers |attribute| into *|value|; false when it is not an int
// attribute of the enumeration.
static bool rl_attribute(const hipDeviceProp_t* p,
                         hipDeviceAttribute_t attribute, int* value) {
  switch (attribute) {
    // The properties' fields.
    case hipDeviceAttributeMaxThreadsPerBlock: *value = p->maxThreadsPerBlock; break;
    case hipDeviceAttributeMaxBlockDimX: *value = p->maxThreadsDim[0]; break;
    case hipDeviceAttributeMaxBlockDimY: *value = p->maxThreadsDim[1]; break;
    case hipDeviceAttributeMaxBlockDimZ: *value = p->maxThreadsDim[2]; break;
    case hipDeviceAttributeMaxGridDimX: *value = p->maxGridSize[0]; break;
    case hipDeviceAttributeMaxGridDimY: *value = p->maxGridSize[1]; break;
    case hipDeviceAttributeMaxGridDimZ: *value = p->maxGridSize[2]; break;
    case hipDeviceAttributeMaxSharedMemoryPerBlock:
    case hipDeviceAttributeSharedMemPerBlockOptin:
      *value = rl_int(p->sharedMemPerBlock); break;
    case hipDeviceAttributeMaxSharedMemoryPerMultiprocessor:
    case hipDeviceAttributeSharedMemPerMultiprocessor:
      *value = rl_int(p->maxSharedMemoryPerMultiProcessor); break;
    case hipDeviceAttributeTotalConstantMemory: *value = rl_int(p->totalConstMem); break;
    case hipDeviceAttributeTotalGlobalMem: *value = rl_int(p->totalGlobalMem); break;
    case hipDeviceAttributeWarpSize: *value = p->warpSize; break;
    case hipDeviceAttributeMaxRegistersPerBlock:
    case hipDeviceAttributeMaxRegistersPerMultiprocessor:
      *value = p->regsPerBlock; break;
    case hipDeviceAttributeClockRate: *value = p->clockRate; break;
    case hipDeviceAttributeClockInstructionRate: *value = p->clockInstructionRate; break;
    case hipDeviceAttributeMemoryClockRate: *value = p->memoryClockRate; break;
    case hipDeviceAttributeMemoryBusWidth: *value = p->memoryBusWidth; break;
    case hipDeviceAttributeMultiprocessorCount:
    case hipDeviceAttributePhysicalMultiProcessorCount:
      *value = p->multiProcessorCount; break;
    case hipDeviceAttributeL2CacheSize: *value = p->l2CacheSize; break;
    case hipDeviceAttributeMaxThreadsPerMultiProcessor:
      *value = p->maxThreadsPerMultiProcessor; break;
    case hipDeviceAttributeMaxBlocksPerMultiProcessor:
      *value = p->maxThreadsPerMultiProcessor / p->warpSize; break;
    case hipDeviceAttributeComputeCapabilityMajor: *value = p->major; break;
    case hipDeviceAttributeComputeCapabilityMinor: *value = p->minor; break;
    case hipDeviceAttributeGcnArch: *value = p->gcnArch; break;
    case hipDeviceAttributeAsicRevision: *value = p->asicRevision; break;
    case hipDeviceAttributeConcurrentKernels: *value = p->concurrentKernels; break;
    case hipDeviceAttributeIntegrated: *value = p->integrated; break;
    case hipDeviceAttributeIsMultiGpuBoard: *value = p->isMultiGpuBoard; break;
    case hipDeviceAttributeManagedMemory: *value = p->managedMemory; break;
    case hipDeviceAttributeConcurrentManagedAccess:
      *value = p->concurrentManagedAccess; break;
    case hipDeviceAttributeDirectManagedMemAccessFromHost:
      *value = p->directManagedMemAccessFromHost; break;
    case hipDeviceAttributePageableMemoryAccess: *value = p->pageableMemoryAccess; break;
    case hipDeviceAttributeCanMapHostMemory: *value = p->canMapHostMemory; break;
    case hipDeviceAttributeCooperativeLaunch: *value = p->cooperativeLaunch; break;
    case hipDeviceAttributeEccEnabled: *value = p->ECCEnabled; break;
    case hipDeviceAttributeComputeMode: *value = p->computeMode; break;
    case hipDeviceAttributeTccDriver: *value = p->tccDriver; break;
    case hipDeviceAttributeTextureAlignment: *value = rl_int(p->textureAlignment); break;
    case hipDeviceAttributeTexturePitchAlignment:
      *value = rl_int(p->texturePitchAlignment); break;
    case hipDeviceAttributeMaxPitch: *value = rl_int(p->memPitch); break;
    // Fixed facts of the simulated boards.
    case hipDeviceAttributeUnifiedAddressing: *value = 1; break;
    case hipDeviceAttributeGlobalL1CacheSupported: *value = 1; break;
    case hipDeviceAttributeLocalL1CacheSupported: *value = 1; break;
    case hipDeviceAttributeFineGrainSupport: *value = 1; break;
    case hipDeviceAttributeStreamPrioritiesSupported: *value = 1; break;
    case hipDeviceAttributeSingleToDoublePrecisionPerfRatio: *value = 32; break;
    case hipDeviceAttributeImageSupport: *value = 1; break;
    case hipDeviceAttributeMaxTexture1DWidth: *value = p->maxTexture1D; break;
    case hipDeviceAttributeMaxTexture2DWidth:
      *value = p->maxTexture2D[0]; break;
    case hipDeviceAttributeMaxTexture2DHeight:
      *value = p->maxTexture2D[1]; break;
    // What the runtime does not provide: 0.
    case hipDeviceAttributeMaxSurface1D:
    case hipDeviceAttributeMaxSurface1DLayered:
    case hipDeviceAttributeMaxSurface2D:
    case hipDeviceAttributeMaxSurface2DLayered:
    case hipDeviceAttributeMaxSurface3D:
    case hipDeviceAttributeMaxSurfaceCubemap:
    case hipDeviceAttributeMaxSurfaceCubemapLayered:
    case hipDeviceAttributeMaxTexture1DLayered:
    case hipDeviceAttributeMaxTexture1DLinear:
    case hipDeviceAttributeMaxTexture1DMipmap:
    case hipDeviceAttributeMaxTexture2DGather:
    case hipDeviceAttributeMaxTexture2DLayered:
    case hipDeviceAttributeMaxTexture2DLinear:
    case hipDeviceAttributeMaxTexture2DMipmap:
    case hipDeviceAttributeMaxTexture3DWidth:
    case hipDeviceAttributeMaxTexture3DHeight:
    case hipDeviceAttributeMaxTexture3DDepth:
    case hipDeviceAttributeMaxTexture3DAlt:
    case hipDeviceAttributeMaxTextureCubemap:
    case hipDeviceAttributeMaxTextureCubemapLayered:
    case hipDeviceAttributeSurfaceAlignment:
    case hipDeviceAttributeCooperativeMultiDeviceLaunch:
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedFunc:
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedGridDim:
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedBlockDim:
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedSharedMem:
    case hipDeviceAttributeCanUseStreamWaitValue:
    case hipDeviceAttributeMemoryPoolsSupported:
    case hipDeviceAttributeAccessPolicyMaxWindowSize:
    case hipDeviceAttributePersistingL2CacheMaxSize:
    case hipDeviceAttributeReservedSharedMemPerBlock:
    case hipDeviceAttributeAsyncEngineCount:
    case hipDeviceAttributeDeviceOverlap:
    case hipDeviceAttributeCanUseHostPointerForRegisteredMem:
    case hipDeviceAttributeComputePreemptionSupported:
    case hipDeviceAttributeHostNativeAtomicSupported:
    case hipDeviceAttributeKernelExecTimeout:
    case hipDeviceAttributeIsLargeBar:
    case hipDeviceAttributeMultiGpuBoardGroupID:
    case hipDeviceAttributePageableMemoryAccessUsesHostPageTables:
    case hipDeviceAttributePciBusId:
    case hipDeviceAttributePciDeviceId:
    case hipDeviceAttributePciDomainID:
    case hipDeviceAttributeLuidDeviceNodeMask:
      *value = 0; break;
    default:
      return false;
  }
  return true;
}

RL_HIP_EXPORT hipError_t hipDeviceGetAttribute(int* value,
                                               hipDeviceAttribute_t attribute,
                                               int device) {
  if (!value) return hipErrorInvalidValue;
  if (device != 0) return hipErrorInvalidDevice;
  RL_HIP_ENTER();
  hipDeviceProp_t p;
  rl_hip_fill_properties(&p);
  if (!rl_attribute(&p, attribute, value)) {
    rl_hip_error("hipDeviceGetAttribute: attribute %d has no int value",
                 (int)attribute);
    return rl_hip_leave(hipErrorInvalidValue);
  }
  return rl_hip_leave(hipSuccess);
}
