// device_attributes.hip — hipDeviceGetAttribute answers every int attribute
// of hipDeviceAttribute_t, agreeing with hipGetDeviceProperties; the
// simulator's runtime has textures (hip_sim_texture.c), so
// hipDeviceAttributeImageSupport is 1 and the 1-D/2-D texture sizes are the
// descriptor's 16384; hipChooseDevice picks the one device; hipDeviceGetLimit
// answers the printf FIFO and malloc heap limits, and the stack size as set.
// Rule: HIP API reference, hipDeviceGetAttribute ("Query for a specific
// device attribute"), hipDeviceAttribute_t ("hipDeviceAttributeImageSupport:
// 1 if device supports image, 0 otherwise"), hipChooseDevice ("Device which
// matches hipDeviceProp_t is returned"), hipDeviceGetLimit
// ("hipLimitPrintfFifoSize", "hipLimitMallocHeapSize").
#include <dlfcn.h>

#include <vector>

#include "conformance.h"

int main() {
  int image = -1;
  HIP_CHECK(hipDeviceGetAttribute(&image, hipDeviceAttributeImageSupport, 0));
  EXPECT(image == 1, "hipDeviceAttributeImageSupport = %d, expected 1", image);

  // Every attribute whose value is an int answers.
  const hipDeviceAttribute_t not_int[] = {
      hipDeviceAttributeName, hipDeviceAttributeUuid, hipDeviceAttributeLuid,
      hipDeviceAttributeMaxThreadsDim, hipDeviceAttributeGcnArchName,
      hipDeviceAttributeArch, hipDeviceAttributeHdpMemFlushCntl,
      hipDeviceAttributeHdpRegFlushCntl};
  std::vector<int> all;
  for (int a = hipDeviceAttributeCudaCompatibleBegin;
       a <= hipDeviceAttributeMemoryPoolsSupported; ++a) all.push_back(a);
  for (int a = hipDeviceAttributeAmdSpecificBegin;
       a <= hipDeviceAttributeFineGrainSupport; ++a) all.push_back(a);
  int answered = 0;
  for (int a : all) {
    bool skip = false;
    for (hipDeviceAttribute_t n : not_int) skip = skip || n == a;
    if (skip) continue;
    int value = -12345;
    hipError_t e = hipDeviceGetAttribute(&value, (hipDeviceAttribute_t)a, 0);
    EXPECT(e == hipSuccess && value != -12345, "attribute %d: %s", a, hipGetErrorName(e));
    ++answered;
  }

  // The attributes agree with the properties.
  hipDeviceProp_t prop;
  HIP_CHECK(hipGetDeviceProperties(&prop, 0));
  const struct { hipDeviceAttribute_t a; int want; } same[] = {
      {hipDeviceAttributeWarpSize, prop.warpSize},
      {hipDeviceAttributeMaxThreadsPerBlock, prop.maxThreadsPerBlock},
      {hipDeviceAttributeMultiprocessorCount, prop.multiProcessorCount},
      {hipDeviceAttributeComputeCapabilityMajor, prop.major},
      {hipDeviceAttributeComputeCapabilityMinor, prop.minor},
      {hipDeviceAttributeMaxSharedMemoryPerBlock, (int)prop.sharedMemPerBlock},
      {hipDeviceAttributeIntegrated, prop.integrated},
      {hipDeviceAttributeL2CacheSize, prop.l2CacheSize},
      {hipDeviceAttributeMaxTexture1DWidth, prop.maxTexture1D},
      {hipDeviceAttributeMaxTexture2DWidth, prop.maxTexture2D[0]},
      {hipDeviceAttributeMaxTexture2DHeight, prop.maxTexture2D[1]},
  };
  EXPECT(prop.maxTexture1D == 16384 && prop.maxTexture2D[0] == 16384 &&
             prop.maxTexture2D[1] == 16384,
         "maxTexture1D %d, maxTexture2D %d x %d, expected 16384", prop.maxTexture1D,
         prop.maxTexture2D[0], prop.maxTexture2D[1]);
  for (const auto& s : same) {
    int value = -1;
    HIP_CHECK(hipDeviceGetAttribute(&value, s.a, 0));
    EXPECT(value == s.want, "attribute %d = %d, properties say %d", (int)s.a, value, s.want);
  }
  EXPECT(prop.warpSize == 32, "warpSize %d on an RDNA board", prop.warpSize);

  int chosen = -1;
  HIP_CHECK(hipChooseDevice(&chosen, &prop));
  EXPECT(chosen == 0, "hipChooseDevice = %d", chosen);

  size_t fifo = 0, heap = 1;
  HIP_CHECK(hipDeviceGetLimit(&fifo, hipLimitPrintfFifoSize));
  EXPECT(fifo > 0, "printf FIFO size 0");
  HIP_CHECK(hipDeviceGetLimit(&heap, hipLimitMallocHeapSize));
  EXPECT(heap == 0, "malloc heap %zu without a device heap", heap);
  // The stack size limit reads back what was set (HIP 6's hipLimitStackSize,
  // 0; Debian's 5.2 header and library lack it and hipDeviceSetLimit, so
  // the entry is looked up at run time).
  typedef hipError_t (*set_limit_fn)(hipLimit_t, size_t);
  set_limit_fn set_limit = (set_limit_fn)dlsym(RTLD_DEFAULT, "hipDeviceSetLimit");
  EXPECT(set_limit != nullptr, "hipDeviceSetLimit is not exported");
  const hipLimit_t stack_limit = (hipLimit_t)0;
  HIP_CHECK(set_limit(stack_limit, 4096));
  size_t stack = 0;
  HIP_CHECK(hipDeviceGetLimit(&stack, stack_limit));
  EXPECT(stack == 4096, "stack limit %zu after setting 4096", stack);
  EXPECT_ERROR(hipDeviceGetLimit(&stack, (hipLimit_t)0x7f), hipErrorUnsupportedLimit);
  std::printf("device_attributes: %d attributes answered\n", answered);
  conformance_ok("device_attributes");
  return 0;
}
