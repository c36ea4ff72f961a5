// redline/backends/rocr_internal.h — private state of the rocr device, shared
// by its files (one per concern): rocr_device.c (open, destroy, vtable),
// rocr_agents.c (agents, ISAs, pools, probe), rocr_memory.c (allocations),
// rocr_queue.c (queues and the error callback), rocr_signal.c (signals),
// rocr_loader.c (code objects). rocr_device.h has the contract.
#ifndef REDLINE_BACKENDS_ROCR_INTERNAL_H_
#define REDLINE_BACKENDS_ROCR_INTERNAL_H_

#include <hsa/amd_hsa_queue.h>
#include <hsa/amd_hsa_signal.h>
#include <stdatomic.h>
#include <stddef.h>

#include "redline/backends/hsa_loader.h"
#include "redline/backends/rocr_device.h"

// The fields the engine's ring protocol touches directly (pm4_reference.md
// §4.3; these offsets are the CP firmware's ABI, unchanged across ROCm).
_Static_assert(sizeof(amd_queue_t) == 256, "amd_queue_t is 256 bytes");
_Static_assert(offsetof(amd_queue_t, write_dispatch_id) == 56,
               "write_dispatch_id at byte 56");
_Static_assert(offsetof(amd_queue_t, read_dispatch_id) == 128,
               "read_dispatch_id at byte 128");
_Static_assert(sizeof(amd_signal_t) == RL_DEVICE_SIGNAL_SIZE,
               "amd_signal_t is 64 bytes");
_Static_assert(offsetof(amd_signal_t, value) == RL_DEVICE_SIGNAL_VALUE_OFFSET,
               "amd_signal_t.value at byte 8");

// How long queue_idle() waits for its barrier marker (see rocr_device.h).
#define RL_ROCR_IDLE_PROBE_NS 10000000ull

typedef struct rl_rocr_allocation_s {
  uint64_t address;
  uint64_t size;
  void* host;
  rl_memory_kind_t kind;
} rl_rocr_allocation_t;

typedef struct rl_rocr_code_object_s {
  hsa_code_object_reader_t reader;
  hsa_executable_t executable;
  bool live;
  // Where ROCr's loader placed the image: read() and write() reach a code
  // object's variables there (capture buffers that alias one, redline/
  // capture.h) with hsa_memory_copy.
  uint64_t load_base;
  uint64_t image_size;
} rl_rocr_code_object_t;

typedef struct rl_rocr_device_s rl_rocr_device_t;

typedef struct rl_rocr_queue_s {
  rl_rocr_device_t* device;
  hsa_queue_t* queue;  // the first member of ROCr's amd_queue_t
  uint32_t id;
  hsa_signal_t marker;  // completion signal of the idle probe
  // Written by ROCr's event thread in the error callback: the status, the
  // read id it saw, then |faulted| (release); read after |faulted|
  // (acquire).
  _Atomic int error_status;
  _Atomic uint64_t error_read_id;
  atomic_bool faulted;
} rl_rocr_queue_t;

struct rl_rocr_device_s {
  rl_device_t base;  // first: rl_device_t* casts to rl_rocr_device_t*
  rl_hsa_api_t api;
  bool initialized;    // hsa_init succeeded; hsa_shut_down is due
  hsa_agent_t gpu;
  hsa_agent_t cpu;
  hsa_profile_t profile;
  hsa_amd_memory_pool_t kernarg_pool;  // fine-grained, host-visible
  hsa_amd_memory_pool_t device_pool;   // coarse-grained VRAM
  bool kernarg_needs_access;           // allow_access per allocation
  uint32_t queue_min_size;
  uint32_t queue_max_size;
  char processor[96];
  char target[96];
  uint64_t timestamp_hz;  // HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY
  uint32_t next_queue_id;
  uint32_t live_queues;
  rl_rocr_allocation_t* allocations;  // unsorted; small
  uint32_t allocation_count;
  uint32_t allocation_capacity;
  uint64_t* signals;  // live signal handles
  uint32_t signal_count;
  uint32_t signal_capacity;
  rl_rocr_code_object_t* code_objects;
  uint32_t code_object_count;
  uint32_t code_object_capacity;
  rl_rocr_device_t* retained_next;  // see rl_rocr_destroy()
};

static inline rl_rocr_device_t* rl_rocr_cast(rl_device_t* device) {
  return (rl_rocr_device_t*)device;
}

// rocr_agents.c: picks the GPU agent for |processor| (NULL: the first
// supported one) and the CPU agent; fills target, profile, queue limits.
rl_status_t rl_rocr_select_agents(rl_rocr_device_t* device,
                                  const char* processor);
// Finds the kernarg and device pools of the selected agents and the LDS
// size (the GPU's GROUP segment pool).
rl_status_t rl_rocr_select_pools(rl_rocr_device_t* device);
// Reads the exact ISA name of |agent| into |isa| ("" when it has none).
rl_status_t rl_rocr_agent_isa(const rl_hsa_api_t* api, hsa_agent_t agent,
                              char* isa, size_t capacity);

// rocr_memory.c
rl_status_t rl_rocr_allocate(rl_device_t* device, uint64_t size,
                             uint64_t alignment, rl_memory_kind_t kind,
                             rl_device_allocation_t* out_allocation);
rl_status_t rl_rocr_allocate_fixed(rl_device_t* device, uint64_t address,
                                   uint64_t size, rl_memory_kind_t kind,
                                   rl_device_allocation_t* out_allocation);
rl_status_t rl_rocr_free(rl_device_t* device, uint64_t address);
rl_status_t rl_rocr_write(rl_device_t* device, uint64_t address,
                          const void* data, uint64_t size);
rl_status_t rl_rocr_read(rl_device_t* device, uint64_t address, void* data,
                         uint64_t size);
// Frees every allocation still live (device destroy).
rl_status_t rl_rocr_memory_release_all(rl_rocr_device_t* device);

// rocr_queue.c
rl_status_t rl_rocr_queue_create(rl_device_t* device, uint32_t packet_count,
                                 rl_device_queue_t* out_queue);
rl_status_t rl_rocr_queue_destroy(rl_device_t* device,
                                  rl_device_queue_t* queue);
void rl_rocr_queue_doorbell(rl_device_t* device, rl_device_queue_t* queue,
                            uint64_t packet_id);
bool rl_rocr_queue_idle(rl_device_t* device, const rl_device_queue_t* queue);
void rl_rocr_queue_fault(rl_device_t* device, const rl_device_queue_t* queue,
                         rl_device_fault_t* out_fault);

// rocr_signal.c
rl_status_t rl_rocr_signal_create(rl_device_t* device, int64_t initial_value,
                                  rl_device_allocation_t* out_signal);
rl_status_t rl_rocr_signal_destroy(rl_device_t* device, uint64_t signal);
void rl_rocr_signal_store(rl_device_t* device, uint64_t signal, int64_t value);
int64_t rl_rocr_signal_load(rl_device_t* device, uint64_t signal);
bool rl_rocr_signal_spin_lt(rl_device_t* device, uint64_t signal,
                            int64_t value, uint64_t timeout_ns,
                            int64_t* out_value);
bool rl_rocr_signal_wait_lt(rl_device_t* device, uint64_t signal,
                            int64_t value, uint64_t timeout_ns,
                            int64_t* out_value);
// Waits on a signal that need not be in the device's table (the queue's
// idle marker); same contract as signal_wait_lt.
bool rl_rocr_signal_wait_raw(rl_rocr_device_t* device, hsa_signal_t signal,
                             int64_t value, uint64_t timeout_ns,
                             int64_t* out_value);
// Destroys every signal still live (device destroy).
rl_status_t rl_rocr_signal_release_all(rl_rocr_device_t* device);

// rocr_loader.c
rl_status_t rl_rocr_load_code_object(rl_device_t* device, const void* bytes,
                                     size_t size,
                                     const rl_code_object_t* parsed,
                                     rl_device_code_object_t* out_code_object);
rl_status_t rl_rocr_unload_code_object(
    rl_device_t* device, const rl_device_code_object_t* code_object);
rl_status_t rl_rocr_loader_release_all(rl_rocr_device_t* device);

#endif  // REDLINE_BACKENDS_ROCR_INTERNAL_H_
