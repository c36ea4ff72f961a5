// sim/hip_sim/hip_sim.h — the HIP runtime over the simulated GPU: a
// libamdhip64 (sonames libamdhip64.so.6 and .so.5, in the private library
// directory build/lib/redline or LIBDIR/redline) that runs an unmodified
// HIP program's kernels — their real gfx11 machine code — on redline's
// simulated device (sim/sim.h) with the `isa` executor
// (sim/isa/isa_executor.h). `redline run` puts it first on the
// program's library path; tests and the shadow hip/hipgraph arms load it
// by path (REDLINE_HIP_LIBRARY).
//
// The API is Debian's hip/hip_runtime_api.h (HIP 5.2); every symbol sits
// in the version node the real library gives it (hip_sim.map). HIP 6
// reordered hipDeviceProp_t and the device attributes: its
// hipGetDevicePropertiesR0600 answers hipErrorNotSupported. What it implements: device management and
// properties, memory (device, host, managed, symbols, memset, sync and
// async copies), launches (<<<>>>, hipLaunchKernel, hipModule*,
// hipExtModuleLaunchKernel), function attributes and occupancy, streams,
// events, host functions and stream callbacks, stream-capture graphs and
// their node queries, errors and device printf. Every other
// entry it exports returns hipErrorNotSupported and names itself once on
// stderr ("redline hip: hipMemset2D is not supported by the simulator").
//
// Execution model (hip_sim_exec.c). As on the hardware, work submitted
// to a stream starts without the host waiting for it: a device worker
// thread, started with the device, runs the streams' queued operations
// (launches, copies, memsets, event markers, host functions) concurrently
// with the program's threads. Each stream runs its operations in order,
// one at a time; among the streams whose next operation may run, the
// operation submitted first runs first (a GPU takes work as it arrives),
// so work is never deferred to a synchronising call. The device runs one
// operation at a time (kernels of different streams do not overlap), and
// the calls that touch the simulated device themselves (hipMalloc, hipFree,
// module loads) wait while an operation runs on it. Dependencies are wait
// operations on a stream: "until stream S completed its operation n".
//   - hipEventRecord makes the event name its stream's marker operation;
//     hipStreamWaitEvent(s, e) queues on |s| a wait for exactly that
//     operation: later work of |s| follows the work before the record,
//     and nothing else of the event's stream (ping-pong between streams
//     works). An event never recorded is not waited for (as HIP).
//   - The null stream is the legacy default stream: an operation queued on
//     it first waits for everything queued so far on every blocking
//     stream, and an operation queued on a blocking stream first waits for
//     everything queued on the null stream; hipStreamNonBlocking streams
//     take no part. hipStreamSynchronize(0) waits for the whole device.
//   - Host functions (hipLaunchHostFunc) and callbacks
//     (hipStreamAddCallback) run in stream order on a second runtime
//     thread, the host thread, with no lock held: their stream waits until
//     the function returns, the other streams go on (as HIP runs callbacks
//     on a thread of its own). One that calls a HIP entry which would wait
//     for the device gets hipErrorIllegalState instead of waiting (it could
//     wait for itself).
//   - Host waits (hip{Stream,Event,Device}Synchronize, the synchronous
//     copies and memsets, hipFree, hipStreamDestroy, hipModuleUnload)
//     block until the operations they cover completed; queries answer
//     hipErrorNotReady until then.
// Copies follow the CUDA "API synchronization behavior" rules HIP
// documents (hip_sim_copy.c): an asynchronous copy from pageable memory
// to device or pinned memory copies its source before returning; a copy
// into pageable memory, and any host-to-host copy, has completed when the
// call returns; the synchronous copies and memsets are queued on their
// stream (the null stream for hipMemcpy) and waited for. Pinned memory
// (hipHostMalloc, hipMallocManaged) is read and written by the worker when
// the copy runs, as a DMA engine would.
// Stream capture (hip_sim_graph.c) records the operations in issue order;
// an event recorded on a capturing stream and waited for by another stream
// brings that stream into the capture, and its event waited for by the
// origin joins it back; hipStreamEndCapture with a forked stream not
// joined back fails with hipErrorStreamCaptureUnjoined and no graph.
// Each launch is one AQL kernel-dispatch packet on
// the simulated device (redline/device/device_funnel.h). A launch that
// faults (a VM fault, s_trap from assert/__trap, an instruction the
// executor refuses) prints "redline hip: kernel NAME failed: <reason>" on
// stderr, and the device is lost as on hardware: that and every later
// synchronisation returns hipErrorLaunchFailure (queued operations then
// complete without running, so no wait hangs). So does a launch none of
// whose work-groups completes within the bound of its wait
// (REDLINE_HIP_TIMEOUT_MS, 10 s by default, a stall bound:
// device_funnel.h; a kernel that never ends): the work-group still running is
// stopped mid-way when the device is destroyed, at exit at the latest, in
// milliseconds (sim/sim_executor.h rl_sim_wg_stopping), and the
// report names the kernel ("stopped NAME").
//
// Memory. hipMalloc returns a device address (RL_SIM_VA_BASE upward) the
// host cannot dereference, as on a discrete GPU. hipHostMalloc,
// hipMallocHost and hipMallocManaged return a host pointer into
// host-visible device memory; a kernel argument of kind global_buffer that
// points into such memory is translated to its device address, and copies
// accept either. Pointers to host-visible memory stored inside device
// memory are not translated.
//
// Timing. An event's time is the simulated device's timestamp counter
// (100 MHz, derived from the host's CLOCK_MONOTONIC: sim/sim.h)
// when its marker ran; hipEventElapsedTime is the difference in
// milliseconds, i.e. how long the simulation took, not a GPU's speed.
//
// Device printf. clang-19 lowers printf in device code two ways: hostcall
// (the default; needs the device libraries' __ockl_printf_* and a host
// thread serving the hostcall buffer) and buffered (-mprintf-kind=buffered:
// the kernel calls __printf_alloc(bytes) and writes a record; the
// code object's amdhsa.printf metadata lists "N:S0:..:HASH,FORMAT" per
// format string). This runtime implements the buffered form. Every launch
// of a kernel with a hidden_printf_buffer argument gets the address of one
// device buffer laid out as
//     uint32 used      bytes of records written so far (atomic add)
//     uint32 capacity  bytes available for records after this header
//     records...
// and __printf_alloc (device library) returns header + 8 + old used, or
// NULL when the record does not fit. A record is uint32 control
// ((bytes << 2) | flags), uint64 format hash, then the arguments: 8 bytes
// each, strings inline NUL-terminated and padded to 8. After each launch
// the runtime prints the records in order on stdout and resets |used|.
//
// Environment:
//   REDLINE_HIP_PROCESSOR=gfx1100   the device (gfx1100, gfx1151, gfx1201;
//                                   REDLINE_STANDIN_ISA=amdgcn-amd-amdhsa--
//                                   gfx1100 is read too)
//   REDLINE_HIP_EXECUTOR=isa|ref    the kernel executor (default isa; ref
//                                   runs the C references of kernels/ only)
//   REDLINE_HIP_TIMEOUT_MS=N        the bound of every launch's wait
//                                   (default 10000)
//   REDLINE_HIP_MEMORY=16G          the device's memory (K/M/G suffix;
//                                   rl_sim_options_t.memory_bytes): every
//                                   allocation takes its page-rounded size,
//                                   beyond it hipErrorOutOfMemory
//   REDLINE_HIP_REPORT=PATH         at exit write "errors N", "launches N",
//                                   "kernels N" (distinct kernels run),
//                                   "device_ticks N", "processor P",
//                                   "executor E", "failed 0|1" (a launch
//                                   faulted), "timeout_ms N", "stopped
//                                   KERNEL" (the first launch that outlived
//                                   the bound, if any; after a stall also
//                                   "stopped_wg_done N", "stopped_wg_total
//                                   N"), with
//                                   REDLINE_HIP_TRACE "trace written" or
//                                   "trace failed MESSAGE", and one
//                                   "error: ..." line per recorded error.
//                                   Report and trace are written by one
//                                   process only (base/run_owner.h:
//                                   not a forked child, and only
//                                   REDLINE_RUN_PID when set)
//                                   (REDLINE_STANDIN_HIP_REPORT too)
//   REDLINE_STANDIN_HIP_HANG=1      test hook: every stream query answers
//                                   hipErrorNotReady (a kernel that never
//                                   finishes)
//
// Launches are checked at the call (hip_sim_stream.c rl_hip_launch_check):
// geometry beyond the device's limits is hipErrorInvalidConfiguration,
// static plus dynamic LDS above the device's is hipErrorInvalidValue; the
// device stays usable. Registered memory (hipHostRegister) is pinned for the
// copy rules, and kernels dereference it through a mirror in simulator
// memory synchronised at each kernel's start and end (hip_sim_register.c).
//
// Misuse the runtime detects (each recorded as one error message, and the
// call returns the HIP error named): a launch, synchronize or capture on a
// destroyed stream (hipErrorInvalidHandle); hipFree of memory a queued
// launch references (recorded, then the free synchronises and proceeds, as
// HIP's hipFree does); hipMemcpy touching bytes outside every live
// allocation, or a device range spanning two (hipErrorInvalidValue); hipFree
// of an address that is not the base of a live allocation
// (hipErrorInvalidValue); a launch whose function belongs to an unloaded
// module (hipErrorInvalidHandle).
//
// Observed accesses: the capture interposer asks this runtime, through
// dlsym'd names (capture/recording/hip_observe_abi.h, hip_sim_observe.c), for the
// byte ranges each launch it recorded loaded and stored, and turns them
// into the effects of launches whose code object has no access metadata
// (docs/capture-interposer.md "Observed effects").
//
// Test hooks (dlsym these names in the loaded library):
#ifndef REDLINE_HIP_SIM_HIP_SIM_H_
#define REDLINE_HIP_SIM_HIP_SIM_H_

#include <stdbool.h>
#include <stdint.h>

#include "capture/recording/hip_observe_abi.h"

uint32_t rl_hip_sim_error_count(void);
const char* rl_hip_sim_error(uint32_t index);  // first 64 kept, or ""
void rl_hip_sim_clear_errors(void);
// Dispatches executed on the simulated GPU since load.
uint64_t rl_hip_sim_launch_count(void);
// Simulated device time of those dispatches, in timestamp ticks (100 MHz).
uint64_t rl_hip_sim_device_ticks(void);
// Progress of the simulated device (rl_device_progress_t.events): grows
// by one each time a work-group completes or a dispatch starts; 0 before
// the device starts. A waiter on a stream sees progress as a change of it
// (redline/backends/hip_wait.h: the bound of the shadow's HIP arms is a
// stall on this runtime, RL_HIP_SIM_PROGRESS names it for dlsym).
uint64_t rl_hip_sim_progress_events(void);

// The observation entry points (capture/recording/hip_observe_abi.h names them for
// the interposer, which finds them with dlsym).
void rl_hip_sim_observe_begin(void);
uint64_t rl_hip_sim_observe_last_launch(void);
bool rl_hip_sim_observe_launch(uint64_t submission,
                               rl_hip_observed_t* out_observed);
void rl_hip_sim_observe_end(void);

typedef uint32_t (*rl_hip_sim_error_count_fn)(void);
typedef const char* (*rl_hip_sim_error_fn)(uint32_t);
typedef void (*rl_hip_sim_clear_errors_fn)(void);
typedef uint64_t (*rl_hip_sim_launch_count_fn)(void);

#endif  // REDLINE_HIP_SIM_HIP_SIM_H_
