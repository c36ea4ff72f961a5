// redline/device/device_funnel.h — the recording funnel's device
// (redline/funnel.h rl_funnel_device_t) over a real device
// (redline/device/device.h rl_device_t): the simulated GPU today, ROCr or
// DRM later. A funnel recording through it is also an ordinary eager run:
// every launch executes on the device before rl_funnel_launch returns, so
// the funnel's reads see the kernels' results.
//
// Mapping of the funnel's calls:
//   allocate          device allocate, RL_MEMORY_KIND_DEVICE; freed at
//                     destroy;
//   write / read      device write / read;
//   load_code_object  parses the bytes and loads them with the device's
//                     load_code_object; the handle is the adapter's index of
//                     the code object, whose load base gives kernel objects
//                     (load base + the kernel's descriptor_address, exactly
//                     as on hardware); unloaded at destroy;
//   launch            copies the kernarg into a slice of the adapter's
//                     kernarg arena (host-visible RL_MEMORY_KIND_KERNARG
//                     blocks that only grow, so a slice stays valid until
//                     destroy), builds one kernel-dispatch packet and
//                     publishes it on the adapter's own queue with the
//                     aql/aql_ring.h protocol, then waits for its completion
//                     signal (bounded).
//
// The packet: barrier bit set (each launch waits for the previous one, as a
// HIP stream would); acquire and release fences at SYSTEM scope (the host
// reads results right after); setup dimensions 3 (HIP dispatches 3-D, see
// hidden_grid_dims in funnel.h); workgroup_size = block; grid_size = grid ×
// block work-items per axis (AQL counts work-items); group segment = the
// kernel's static LDS + the launch's dynamic LDS; private segment = the
// kernel's private_segment_fixed_size; the adapter's completion signal.
//
// Errors. Every check runs before a ring slot is reserved (block axes that
// do not fit the packet's 16 bits, grids of more than 2^32 - 1 work-items
// per axis, LDS above the device's limit: RL_STATUS_CONTRACT, the class the
// replay gives a launch that does not fit AQL, so shadow arms and replay
// exit alike).
// A launch whose queue faults fails with RL_STATUS_POISONED carrying the
// device's fault message (e.g. the VM fault of a kernel access); a launch
// that does not complete within the timeout fails with
// RL_STATUS_QUARANTINED. Either way the queue is unusable, so every later
// launch fails with the same code; allocation, reads and writes still work
// (a test can inspect memory after a fault).
//
// Ownership: the adapter does not own |device|: destroy the adapter (with
// rl_funnel_device_destroy) before the device. When the queue cannot be
// destroyed because it may still be executing (a hung packet), the
// adapter leaves everything the queue could reference (kernargs, signal,
// code objects, buffers) to the device's own destruction instead of
// freeing memory a running kernel might touch.
//
// Thread-safety: none; one thread drives the funnel and its device.
#ifndef REDLINE_DEVICE_DEVICE_FUNNEL_H_
#define REDLINE_DEVICE_DEVICE_FUNNEL_H_

#include <stdbool.h>
#include <stdint.h>

#include "redline/device/device.h"
#include "redline/funnel.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// How long a launch may take before the adapter gives up by default: 10 s
// (redline/limits.h RL_LIMIT_DEFAULT_WAIT_TIMEOUT_NS).
#define RL_DEVICE_FUNNEL_TIMEOUT_NS 10000000000ull
// Packets in the adapter's queue. One launch is in flight at a time; the
// ring only needs to be a power of two.
#define RL_DEVICE_FUNNEL_QUEUE_PACKETS 64u
// Bytes of each kernarg arena block (a larger kernarg gets its own block).
#define RL_DEVICE_FUNNEL_KERNARG_BLOCK 65536u

// Fills *|out_device| with an adapter over |device|: creates its queue and
// completion signal on |device|. *|out_device| is cleared on entry and on
// failure. Release it with rl_funnel_device_destroy().
rl_status_t rl_device_funnel_create(rl_device_t* device,
                                    rl_funnel_device_t* out_device);

// The same with every wait (ring reservation and completion) bounded by
// |timeout_ns| instead (0: RL_DEVICE_FUNNEL_TIMEOUT_NS). On a device that
// reports progress (rl_device_vtable_t.queue_progress: the simulator) the
// completion wait's bound is a stall, not a duration: a launch fails only
// once no work-group of it completed for |timeout_ns|, and its message
// names the kernel and its work-groups done of the total; a dispatch that
// keeps completing work-groups runs as long as it needs.
rl_status_t rl_device_funnel_create_bounded(rl_device_t* device,
                                            uint64_t timeout_ns,
                                            rl_funnel_device_t* out_device);

// True when the adapter's last launch was given up because it stalled on
// a device that reports progress; then *|out_wg_done| of *|out_wg_total|
// work-groups of that dispatch had completed.
bool rl_device_funnel_stalled(const rl_funnel_device_t* device,
                              uint64_t* out_wg_done, uint64_t* out_wg_total);

// How far the adapter's queue got (rl_device_progress_t, device.h): true
// and *|out_progress| filled on a device that reports progress (the
// simulator), false and zeros elsewhere. Reads the queue's counters only,
// so it may be called while another thread waits on a launch.
bool rl_device_funnel_progress(const rl_funnel_device_t* device,
                               rl_device_progress_t* out_progress);

// The device address where code object |handle| (what the adapter's
// load_code_object returned) was loaded: the address of its image's vaddr
// 0, so a symbol's device address is that plus its st_value. 0 for a
// handle the adapter does not know. For runtimes over the simulator that
// resolve device variables (sim/hip_sim).
uint64_t rl_device_funnel_load_base(const rl_funnel_device_t* device,
                                    uint64_t handle);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_DEVICE_DEVICE_FUNNEL_H_
