// redline/device/device_kernels.h — whether a device can run every kernel
// a capture launches, asked before anything is loaded or reserved. The
// simulator's `isa` executor refuses code with instructions it does not
// model (device.h check_kernel); a device without check_kernel runs all.
// One check for every path that runs a capture: the replay contract and
// shadow's eager and recorded arms, so the same file is refused with the
// same status (RL_STATUS_CONTRACT, exit 4) by `replay` and `shadow`.
#ifndef REDLINE_DEVICE_DEVICE_KERNELS_H_
#define REDLINE_DEVICE_DEVICE_KERNELS_H_

#include "redline/capture.h"
#include "redline/device/device.h"
#include "redline/status.h"

// Asks |device| about each kernel |capture| launches (once per kernel);
// the first refusal, naming the kernel and the instruction, is returned.
rl_status_t rl_device_check_capture_kernels(rl_device_t* device,
                                            const rl_capture_t* capture);

#endif  // REDLINE_DEVICE_DEVICE_KERNELS_H_
