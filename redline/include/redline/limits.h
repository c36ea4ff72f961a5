// redline/limits.h — resource budgets for untrusted input.
//
// A capture file is input from elsewhere: a 57 KB file can declare a 1 GiB
// zstd buffer, a grid of billions of work-items or thousands of launches.
// Every command that reads, replays or compares a capture works inside the
// budgets below and refuses *before* it allocates or executes: the refusal
// names the number the input asks for and the limit, so the caller can
// raise the limit deliberately for a capture it trusts.
//
//   limit                   default    enforced by              refusal (exit)
//   max_decompressed_bytes  4 GiB      capture file reader      INVALID_INPUT (3)
//   max_device_bytes        8 GiB      replay contract, shadow  CONTRACT (4)
//   max_work_items          2^24, or   replay contract, shadow, CONTRACT (4)
//                           the        the simulator (a fault)
//                           capture's
//                           largest
//                           launch
//   max_dispatches          65536, or  replay contract, shadow, CONTRACT (4)
//                           the        the simulator (a fault)
//                           capture's
//                           launches
//   wait_timeout_ns         10 s       every wait of replay and shadow
//                           (60 s in sanitizer builds)
//                                      QUARANTINED (7)
//   max_windows             4096       capture file reader,     INVALID_INPUT (3)
//                                      shadow, bench
//   max_regions             16384      capture file reader,     INVALID_INPUT (3)
//                                      replay contract, shadow
//   max_bindings            4096       capture file reader,     INVALID_INPUT (3)
//                                      replay contract, shadow
//
// Why these numbers: the decode workloads redline captures keep each
// buffer below 2^30 elements and their whole state well below 4 GiB; a
// replay holds the decoded capture and the device copy (twice the
// contents), and this budget keeps that inside a 24 GiB host with room for
// shadow's extra arms. 2^24 work-items is 16 M, above the largest decode
// launch (a vocabulary-sized GEMV of 128 K rows x 64 lanes = 8 M) and, on
// the simulator's reference executor, seconds rather than minutes. 65536
// dispatches per step is far above a decode step's hundreds of launches;
// for a capture the default grows to the capture's own launch count
// (rl_limits_for_capture): the file reader admits no more launches than
// the file's bytes hold (44 bytes per launch record at least,
// docs/capture-format.md), and a replay's memory per launch (its packet,
// kernarg and patch sites) is a bounded multiple of that record, so the
// launch count of a file that could be read is one its memory can afford.
// A program the user ran (hipDispatchLatency: 110,330 launches per step)
// then replays without --max-dispatches; an explicit budget still binds.
// Likewise the default work-item budget grows to the capture's largest
// launch at its recorded grid: a program the user ran at the hardware's
// limits (`redline run`: a 4096x4096 convolution with its halo, 26 M
// work-items in one dispatch) replays at its own size without
// --max-work-items. What it still refuses by default is a grid bound to a
// parameter whose admitted range asks for more than 2^24 and more than
// any recorded launch. Unlike a launch count, work-items cost time, not
// memory: a file from elsewhere can declare a large recorded grid in a
// few bytes, so replay it with an explicit --max-work-items (the stall
// bound of the waits, below, does not stop a dispatch that progresses).
//
// What each limit counts:
//   max_decompressed_bytes  the sum of every buffer's stored initial
//                           contents after decompression (raw records
//                           count too), checked when BUFFER_DATA starts,
//                           before any buffer is decompressed.
//   max_device_bytes        the device memory one command takes for the
//                           capture: every buffer redline allocates (page
//                           rounded) plus the code objects. rl_replay
//                           counts one device; shadow counts every arm.
//   max_work_items          work-items of one dispatch (grid x block over
//                           three axes); a grid bound to a parameter is
//                           counted at the largest admitted value.
//   max_dispatches          launches of one step (one run of a replay, one
//                           window of a shadow arm); on the simulator, the
//                           dispatches one PM4 indirect-buffer packet may
//                           launch (chained IBs included).
//   wait_timeout_ns         how long any single wait for the device may
//                           last before the run is quarantined.
//   max_windows             the windows (steps) one walk runs: the COUNT of
//                           every window a capture declares (the reader
//                           refuses the file) and of the window a shadow or
//                           bench run walks (--windows, or the capture's).
//                           4096 covers a decode step's positions
//                           (pos in [1, 4096)); shadow keeps one result cell
//                           per window, region and arm, so the budget also
//                           bounds its memory.
//   max_regions             state regions a capture declares: every one is
//                           read and compared after every window of every
//                           arm. 16384 is above what the interposer can
//                           declare (a region per buffer and variable).
//   max_bindings            scalar bindings of one launch: each is
//                           evaluated and patched per run. A launch has at
//                           most one per kernarg dword and grid axis; 4096
//                           covers a 16 KiB kernarg.
// Launches per step (the "steps" of a capture) are max_dispatches.
//
// A zero field means its default (rl_limits_resolve); UINT64_MAX (or
// UINT32_MAX) turns a limit off. The replay engine applies the work budgets
// (max_work_items, max_dispatches) by default only on device sim, which
// executes every work-item on the host; on a GPU device they apply when the
// caller sets them (redline/replay.h).
//
// Thread-safety: plain values and pure functions.
#ifndef REDLINE_LIMITS_H_
#define REDLINE_LIMITS_H_

#include <stdint.h>

#include "redline/capture.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RL_LIMIT_DEFAULT_DECOMPRESSED_BYTES (4ull << 30)
#define RL_LIMIT_DEFAULT_DEVICE_BYTES (8ull << 30)
#define RL_LIMIT_DEFAULT_WORK_ITEMS (1ull << 24)
#define RL_LIMIT_DEFAULT_DISPATCHES 65536u
#define RL_LIMIT_DEFAULT_WINDOWS 4096u
#define RL_LIMIT_DEFAULT_REGIONS 16384u
#define RL_LIMIT_DEFAULT_BINDINGS 4096u
// Sanitizer builds of redline itself (CMake RL_SANITIZE defines
// RL_SANITIZED_BUILD) run the simulator several times slower: one ISA step
// of the decode workload under ASan took more than 10 s on the loaded
// 2-core CI machine. They wait up to 60 s; every other build 10 s.
#ifdef RL_SANITIZED_BUILD
#define RL_LIMIT_DEFAULT_WAIT_TIMEOUT_NS 60000000000ull
#else
#define RL_LIMIT_DEFAULT_WAIT_TIMEOUT_NS 10000000000ull
#endif

typedef struct rl_limits_s {
  uint64_t max_decompressed_bytes;
  uint64_t max_device_bytes;
  uint64_t max_work_items;
  uint32_t max_dispatches;
  uint64_t wait_timeout_ns;
  // Added last: older callers' structs end before them.
  uint32_t max_windows;
  uint32_t max_regions;
  uint32_t max_bindings;  // per launch
} rl_limits_t;

// |limits| with every zero field replaced by its default; NULL gives all
// the defaults.
rl_limits_t rl_limits_resolve(const rl_limits_t* limits);

// |limits| resolved (rl_limits_resolve) for running |capture|: when the
// caller left max_dispatches at 0 it is the default or the capture's
// launch count, whichever is larger, and when it left max_work_items at 0
// the default or the work-items of the capture's largest launch at its
// recorded grid, whichever is larger (see "Why these numbers" above); a
// chosen max_dispatches or max_work_items is kept. NULL |capture|:
// rl_limits_resolve.
rl_limits_t rl_limits_for_capture(const rl_limits_t* limits,
                                  const rl_capture_t* capture);

// The device memory the capture asks for when redline allocates every
// buffer: each buffer's size rounded up to 4 KiB, plus its |guard_bytes|,
// plus the code objects' bytes. Saturates at UINT64_MAX.
uint64_t rl_limits_capture_device_bytes(const rl_capture_t* capture,
                                        uint64_t guard_bytes);

// Checks the static shape of |capture| against |limits| (NULL or zero
// fields: the defaults): its region count against max_regions and every
// launch's binding count against max_bindings (RL_STATUS_INVALID_INPUT, as
// the reader refuses such a file), its launch count against max_dispatches
// (0: rl_limits_for_capture's, so only a chosen budget refuses), every launch's
// work-items (a parameter-bound grid axis at its largest value over the
// admitted range) against max_work_items, and |device_bytes| (what the
// caller will allocate, from rl_limits_capture_device_bytes and any
// multiplier of its own) against max_device_bytes. Fails with
// RL_STATUS_CONTRACT naming the launch or the byte count and the limit:
//   "launch 4 (kernel vc_partial_sum): 16777280 work-items exceed the limit
//    of 16777216 per dispatch (max_work_items, --max-work-items)"
rl_status_t rl_limits_check_capture(const rl_capture_t* capture,
                                    const rl_limits_t* limits,
                                    uint64_t device_bytes);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_LIMITS_H_
