// sim/hip_sim/hip_sim_device.c — device choice and the device limits
// of the HIP runtime over the simulator (docs/hip-runtime.md, "Device
// limits"). There is one device, 0, so hipChooseDevice always picks it.
// The limits are what the runtime really provides:
//   hipLimitStackSize (HIP 6's value 0; Debian's HIP 5.2 header lacks it)
//     is recorded and reported back: the simulator gives every kernel the
//     private segment its code object asks for, whatever the limit says;
//   hipLimitPrintfFifoSize is the fixed device printf buffer
//     (RL_HIP_PRINTF_BYTES); setting another size is not supported;
//   hipLimitMallocHeapSize is 0: the runtime has no device-side heap
//     (device malloc), so only 0 can be set.
// Another limit is hipErrorUnsupportedLimit.
#include "sim/hip_sim/hip_sim_internal.h"

// HIP 6's hipLimitStackSize, absent from HIP 5.2's enum hipLimit_t.
#define RL_HIP_LIMIT_STACK_SIZE 0
// HIP's default per-thread stack size.
#define RL_HIP_DEFAULT_STACK_BYTES 1024u

static size_t rl_stack_bytes = RL_HIP_DEFAULT_STACK_BYTES;

// Declared by HIP 5.3 and later, not by Debian's 5.2 header.
hipError_t hipDeviceSetLimit(enum hipLimit_t limit, size_t value);

RL_HIP_EXPORT hipError_t hipChooseDevice(int* device,
                                         const hipDeviceProp_t* prop) {
  if (!device || !prop) return hipErrorInvalidValue;
  RL_HIP_ENTER();
  *device = 0;
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipDeviceGetLimit(size_t* value,
                                           enum hipLimit_t limit) {
  if (!value) return hipErrorInvalidValue;
  RL_HIP_ENTER();
  switch ((int)limit) {
    case RL_HIP_LIMIT_STACK_SIZE: *value = rl_stack_bytes; break;
    case hipLimitPrintfFifoSize: *value = RL_HIP_PRINTF_BYTES; break;
    case hipLimitMallocHeapSize: *value = 0; break;
    default: return rl_hip_leave(hipErrorUnsupportedLimit);
  }
  return rl_hip_leave(hipSuccess);
}

RL_HIP_EXPORT hipError_t hipDeviceSetLimit(enum hipLimit_t limit,
                                           size_t value) {
  RL_HIP_ENTER();
  switch ((int)limit) {
    case RL_HIP_LIMIT_STACK_SIZE:
      rl_stack_bytes = value;
      return rl_hip_leave(hipSuccess);
    case hipLimitPrintfFifoSize:
      if (value == RL_HIP_PRINTF_BYTES) return rl_hip_leave(hipSuccess);
      rl_hip_unsupported("hipDeviceSetLimit(hipLimitPrintfFifoSize) to "
                         "another size than 1 MiB");
      return rl_hip_leave(hipErrorNotSupported);
    case hipLimitMallocHeapSize:
      if (value == 0) return rl_hip_leave(hipSuccess);
      rl_hip_unsupported("hipDeviceSetLimit(hipLimitMallocHeapSize) "
                         "(no device-side heap)");
      return rl_hip_leave(hipErrorNotSupported);
    default:
      return rl_hip_leave(hipErrorUnsupportedLimit);
  }
}
