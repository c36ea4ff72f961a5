// redline/device/device.h — the interface between the replay engine and a
// device backend (sim today; rocr and drm later). Private to redline.
//
// A device owns a GPU virtual address space. Everything the engine touches
// on it is named by a 64-bit *device address*; on the simulated device
// these are deliberately not host addresses, so a pointer that was never
// rebased faults instead of silently working.
//
// Memory: allocate() returns the device address and, when the memory is
// host-visible (kernarg segments, AQL rings, signals, fine-grained buffers
// on ROCr; everything on sim), a host pointer to the same bytes. Hot paths
// (patching kernargs, publishing packets) write through host pointers; cold
// paths use write()/read().
//
// Queues: queue_create() gives an AQL ring of |packet_count| 64-byte slots
// (a power of two) in host-visible device memory, initialised to INVALID
// headers, with 64-bit write and read dispatch ids and a doorbell. The
// producer protocol is in aql/aql_ring.h. The device's packet processor
// consumes packets in order, decrements completion signals, resets each
// consumed slot's header to INVALID and advances the read id. After a fault
// the queue is in an error state: it consumes nothing more, and
// queue_error() describes the fault.
//
// Signals: a signal is a 64-bit value in device memory, named by its device
// address (the value lives at byte RL_DEVICE_SIGNAL_VALUE_OFFSET of a
// 64-byte amd_signal_t-shaped object, as on ROCr). Waits are bounded.
//
// Thread-safety: a device may be used from one engine thread at a time; the
// backend's own threads (the simulated command processor) synchronise with
// it through the ring protocol and signals only.
#ifndef REDLINE_DEVICE_DEVICE_H_
#define REDLINE_DEVICE_DEVICE_H_

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "redline/code_object.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// amd_signal_t (Debian hsa/amd_hsa_signal.h): kind@0, value@8; 64 bytes.
#define RL_DEVICE_SIGNAL_SIZE 64
#define RL_DEVICE_SIGNAL_VALUE_OFFSET 8

typedef enum rl_memory_kind_e {
  RL_MEMORY_KIND_DEVICE = 0,  // coarse-grained VRAM: buffers
  RL_MEMORY_KIND_KERNARG = 1, // fine-grained, host-visible: kernargs, IBs
  RL_MEMORY_KIND_SYSTEM = 2,  // host-visible system memory: rings, signals
} rl_memory_kind_t;

typedef struct rl_device_allocation_s {
  uint64_t address;  // device address
  uint64_t size;
  void* host;        // host view of the same bytes, or NULL
} rl_device_allocation_t;

typedef struct rl_device_code_object_s {
  uint64_t load_base;  // device address of the loaded image's vaddr 0
  uint64_t image_size;
  uint64_t handle;     // backend's identifier for unload
} rl_device_code_object_t;

typedef struct rl_device_queue_s {
  uint32_t id;            // unique per device, for route proof
  uint32_t packet_count;  // power of two
  void* ring;             // host view of packet_count * 64 bytes
  uint64_t ring_address;  // device address of the ring
  // Dispatch ids, monotonically increasing; slot = id & (packet_count - 1).
  // The producer owns *write_index, the packet processor *read_index; both
  // are accessed with C11 atomics (acquire/release).
  uint64_t* write_index;
  uint64_t* read_index;
  void* backend;          // the backend's queue object
} rl_device_queue_t;

// The longest fault message kept (rl_device_fault_t.message, with its
// NUL): room for the executor's whole account (kernel, work-group, wave,
// instruction, PC, the access and the hint), which every layer passing it
// on keeps whole (docs/failure-semantics.md).
#define RL_DEVICE_FAULT_MESSAGE_MAX 2048

// A fault report: what the packet processor or an executor refused.
typedef struct rl_device_fault_s {
  bool faulted;
  uint64_t packet_id;   // dispatch id of the packet being processed
  uint64_t address;     // faulting address, when the fault is a VM fault
  // e.g. "VM fault: write of 4 bytes at 0x... ..."
  char message[RL_DEVICE_FAULT_MESSAGE_MAX];
} rl_device_fault_t;

// How far a queue's work got (queue_progress): |events| grows by one each
// time a work-group completes or a dispatch starts, so a wait sees
// progress as a change of it; |wg_done| of |wg_total| are the work-groups
// of the dispatch the queue runs or ran last (0 of 0 before any).
typedef struct rl_device_progress_s {
  uint64_t events;
  uint64_t wg_done;
  uint64_t wg_total;
} rl_device_progress_t;

typedef struct rl_device_s rl_device_t;

typedef struct rl_device_vtable_s {
  void (*destroy)(rl_device_t* device);
  rl_status_t (*allocate)(rl_device_t* device, uint64_t size,
                          uint64_t alignment, rl_memory_kind_t kind,
                          rl_device_allocation_t* out_allocation);
  // Allocates at exactly |address| (keep-address buffers); fails with
  // RL_STATUS_CONTRACT when the range is taken or not addressable.
  rl_status_t (*allocate_fixed)(rl_device_t* device, uint64_t address,
                                uint64_t size, rl_memory_kind_t kind,
                                rl_device_allocation_t* out_allocation);
  // Optional (NULL when the device cannot): reserves [|address|, |address|
  // + |size|) as a no-access range, with no memory behind it. Every access
  // to it from a packet or a kernel, read or write, is a VM fault (the
  // simulator's message says the access touches a no-access guard range),
  // and write()/read() through the vtable fail. Checked mode places one
  // right after each buffer it allocates, so a kernel that reads or
  // writes past a buffer's end faults at once. |address| need not be
  // page aligned; the range must not overlap a live allocation
  // (RL_STATUS_CONTRACT). Released with free(|address|).
  rl_status_t (*reserve_guard)(rl_device_t* device, uint64_t address,
                               uint64_t size);
  rl_status_t (*free)(rl_device_t* device, uint64_t address);
  rl_status_t (*write)(rl_device_t* device, uint64_t address,
                       const void* data, uint64_t size);
  rl_status_t (*read)(rl_device_t* device, uint64_t address, void* data,
                      uint64_t size);
  // Loads a parsed code object; kernel objects are load_base + the kernel's
  // descriptor_address, exactly as on hardware. The device may keep
  // pointers into |parsed| (its kernels' metadata), so |parsed| must outlive
  // the load (until unload_code_object or destroy). A code object for
  // another processor fails with RL_STATUS_CONTRACT.
  rl_status_t (*load_code_object)(rl_device_t* device, const void* bytes,
                                  size_t size, const rl_code_object_t* parsed,
                                  rl_device_code_object_t* out_code_object);
  rl_status_t (*unload_code_object)(rl_device_t* device,
                                    const rl_device_code_object_t* code_object);
  // NULL on a device without AQL queues (drm): routes aql and pm4 and
  // eager execution are refused there.
  rl_status_t (*queue_create)(rl_device_t* device, uint32_t packet_count,
                              rl_device_queue_t* out_queue);
  // Destroys a queue. The engine decides quarantine *before* calling this,
  // from queue_idle() and queue_fault(): a queue that is not idle had
  // packets in flight, so what they reference is in an unknown state.
  // Destroy stops the packet processor whatever it is doing (waiting,
  // blocked in a barrier packet, hung, faulted). It fails with
  // RL_STATUS_QUARANTINED only when the backend cannot prove the processor
  // stopped (hardware that refuses to preempt); then nothing the queue
  // references may be freed. The simulator always stops and joins its
  // processor thread and returns OK.
  rl_status_t (*queue_destroy)(rl_device_t* device, rl_device_queue_t* queue);
  // Rings the doorbell with the id of the last packet written.
  void (*queue_doorbell)(rl_device_t* device, rl_device_queue_t* queue,
                         uint64_t packet_id);
  // True when the queue is idle: read id == write id, nothing executing, and
  // the queue neither faulted nor hung.
  bool (*queue_idle)(rl_device_t* device, const rl_device_queue_t* queue);
  void (*queue_fault)(rl_device_t* device, const rl_device_queue_t* queue,
                      rl_device_fault_t* out_fault);
  // Optional (NULL: the device cannot tell; waits are then bounded by wall
  // time alone): the queue's progress, read from any thread.
  void (*queue_progress)(rl_device_t* device, const rl_device_queue_t* queue,
                         rl_device_progress_t* out_progress);
  rl_status_t (*signal_create)(rl_device_t* device, int64_t initial_value,
                               rl_device_allocation_t* out_signal);
  rl_status_t (*signal_destroy)(rl_device_t* device, uint64_t signal);
  // signal_store/load/wait_lt on an address that is not a live signal do
  // nothing, read 0 and return false respectively.
  void (*signal_store)(rl_device_t* device, uint64_t signal, int64_t value);
  int64_t (*signal_load)(rl_device_t* device, uint64_t signal);
  // Waits until the signal's value is < |value| or |timeout_ns| passes.
  // Returns true when the condition held; *|out_value| is the last value
  // observed.
  bool (*signal_wait_lt)(rl_device_t* device, uint64_t signal, int64_t value,
                         uint64_t timeout_ns, int64_t* out_value);
  // Optional (NULL: callers use signal_wait_lt): signal_wait_lt that
  // polls for its whole |timeout_ns| and never sleeps (ROCr's
  // HSA_WAIT_STATE_ACTIVE; rl_replay_options_t.spin_wait).
  bool (*signal_spin_lt)(rl_device_t* device, uint64_t signal, int64_t value,
                         uint64_t timeout_ns, int64_t* out_value);
  // The device's timestamp counter and its frequency (100 MHz on sim).
  uint64_t (*timestamp)(rl_device_t* device);
  // Optional (NULL when the device cannot; route drm needs it): submits the
  // PM4 indirect buffer of |dwords| dwords at device address |ib_address|
  // (host-visible memory from allocate()) as one command submission on a
  // compute ring, then waits at most |timeout_ns| for its fence.
  //   RL_OK, *|out_fence_ok| true: the IB and everything it wrote are
  //     complete and visible to the host (the fence is the completion).
  //   RL_OK, *|out_fence_ok| false: the wait expired; the IB may still
  //     execute, so nothing it references may be freed (quarantine) and
  //     the device keeps its memory until the fence signals.
  //   An error: the submission was refused (nothing executes) or the
  //     context was lost; *|out_fence_ok| is false.
  // One submission in flight at a time; every allocation live on the
  // device is resident for it.
  rl_status_t (*submit_ib)(rl_device_t* device, uint64_t ib_address,
                           uint32_t dwords, uint64_t timeout_ns,
                           bool* out_fence_ok);
  // Optional (NULL: the device runs any kernel of a code object it loads):
  // checks, before anything is loaded or reserved (the replay contract),
  // that the device can run |kernel| of the code object |bytes| (|size|
  // bytes, parsed as |parsed|); RL_STATUS_CONTRACT naming the kernel and
  // what it cannot run otherwise. The simulator forwards it to its
  // executor: the `isa` executor refuses code holding an instruction it does
  // not model, naming its mnemonic and PC.
  rl_status_t (*check_kernel)(rl_device_t* device, const void* bytes,
                              size_t size, const rl_code_object_t* parsed,
                              const rl_code_object_kernel_t* kernel);
} rl_device_vtable_t;

struct rl_device_s {
  const rl_device_vtable_t* vtable;
  const char* name;     // "sim", "rocr", "drm"
  const char* target;   // exact ISA, "amdgcn-amd-amdhsa--gfx1100"
  uint64_t timestamp_frequency;  // Hz
  uint32_t lds_limit;   // bytes of LDS per work-group
  // True when kernels execute on the host (the simulator): the replay's
  // work budgets (redline/limits.h) apply to it by default.
  bool host_executes;
  // Holders besides the opener (redline/replay.h "Teardown"): every replay
  // holds its device, so closing a device before destroying its replays
  // only drops the opener's hold, and the last holder's release destroys
  // it. Zero at creation (the implementations zero the struct); changed
  // only by rl_device_hold / rl_device_release.
  atomic_int extra_holders;
};

// Adds a holder to |device| (a replay, for its lifetime).
static inline void rl_device_hold(rl_device_t* device) {
  atomic_fetch_add_explicit(&device->extra_holders, 1, memory_order_relaxed);
}

// Drops one hold (the opener's is dropped by rl_device_close); the last
// one destroys |device|. acq_rel: every holder's use of the device happens
// before the destroy.
static inline void rl_device_release(rl_device_t* device) {
  if (atomic_fetch_sub_explicit(&device->extra_holders, 1,
                                memory_order_acq_rel) == 0) {
    device->vtable->destroy(device);
  }
}

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_DEVICE_DEVICE_H_
