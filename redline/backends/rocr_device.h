// redline/backends/rocr_device.h — the `rocr` device: redline/device/device.h
// implemented on AMD's ROCr runtime (libhsa-runtime64, loaded with dlopen
// through hsa_loader.h), driving a real GPU through a ROCr AQL queue.
//
// Agent: the GPU agent whose exact ISA name (hsa_isa_get_info_alt
// HSA_ISA_INFO_NAME) is "amdgcn-amd-amdhsa--<processor>" for the requested
// processor, or the first agent with a supported ISA. Redline targets
// exactly gfx1100, gfx1151 and gfx1201; other agents are refused by name.
//
// Address model: ROCr gives one 64-bit address per allocation, valid on the
// agents that may access it. redline uses it as the device address, and
// takes the host view from hsa_amd_pointer_info's hostBaseAddress ("base
// address at which the host agent may access the allocation") instead of
// assuming the two are equal: on ROCr they are for system memory, on the
// CI stand-in (tests/standins/hsa) they are not, which catches any code
// that mixes them up.
//   RL_MEMORY_KIND_KERNARG, RL_MEMORY_KIND_SYSTEM: the CPU agent's
//     fine-grained KERNARG_INIT pool; host-visible; the GPU is given access
//     with hsa_amd_agents_allow_access when the pool does not allow it by
//     default.
//   RL_MEMORY_KIND_DEVICE: the GPU agent's coarse-grained global pool
//     (VRAM); no host view; write()/read() use hsa_memory_copy.
//   A loaded code object's image (its variables, which capture buffers may
//     alias): write()/read() use hsa_memory_copy there too.
//   allocate_fixed: RL_STATUS_CONTRACT. ROCr has no fixed-address
//     allocation in the API redline loads (hsa_amd_vmem_* is ROCm 6+ only).
//
// Queues: one ROCr AQL queue (hsa_queue_create, HSA_QUEUE_TYPE_SINGLE:
// redline's replay is the only producer) per prepared replay. The ring is
// hsa_queue_t.base_address. The engine (aql/aql_ring.h) writes the ids
// directly: rl_device_queue_t.write_index and read_index point at
// amd_queue_t.write_dispatch_id (byte 56) and read_dispatch_id (byte 128)
// of the queue (hsa/amd_hsa_queue.h; the hsa_queue_t ROCr returns is the
// first member of its amd_queue_t, and hsa_queue_load/store_*_index are
// plain atomic accesses to those two fields). With one producer, the
// engine's release store of write id + n is ROCr's
// hsa_queue_add_write_index_screlease. The order is ROCr's own
// (AqlQueue::ExecutePM4, pm4_reference.md §4.3): reserve the ids, write
// bytes 4..63 of each packet, publish each 32-bit header word with a
// release store, then ring the doorbell once with
// hsa_signal_store_screlease(queue->doorbell_signal, last packet id).
// Queue errors arrive through hsa_queue_create's callback on ROCr's event
// thread; queue_fault() reports the first one (status name and text, read
// id at the time), so the engine's bounded waits poison or quarantine.
// queue_idle() is true only when the queue has not faulted, read id ==
// write id, and a barrier-AND marker packet (barrier bit set, so it
// completes only after every earlier packet has) completes within 10 ms:
// on hardware the read id advances when a dispatch is launched, not when
// it finishes.
//
// Signals: ROCr signals. hsa_signal_t.handle is the address of the
// signal's amd_signal_t (hsa/amd_hsa_signal.h; value at byte 8), which is
// what device.h calls a signal's device address; redline passes it in
// completion_signal fields and to the hsa_signal_* functions. Waits use
// hsa_signal_wait_scacquire with a timeout converted to the system
// timestamp unit (HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY), re-checked against
// CLOCK_MONOTONIC because HSA allows spurious returns.
//
// Code objects: hsa_code_object_reader_create_from_memory, then an
// executable (hsa_executable_create_alt with the agent's profile),
// hsa_executable_load_agent_code_object and hsa_executable_freeze. Kernel
// objects come from each kernel's `.kd` symbol
// (HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT). The engine computes kernel
// objects as load_base + descriptor_address, so load_base is the first
// kernel object minus its descriptor_address, and every other kernel must
// agree (RL_STATUS_INTERNAL otherwise: the loader did not place the image
// contiguously).
//
// Without the library, or when hsa_init fails (no /dev/kfd: ROCr reports
// HSA_STATUS_ERROR_OUT_OF_RESOURCES), opening fails closed with
// RL_STATUS_UNAVAILABLE and the same reason `redline doctor` prints.
//
// Thread-safety: as device.h: one engine thread at a time. The queue error
// callback runs on ROCr's thread and only stores atomics.
#ifndef REDLINE_BACKENDS_ROCR_DEVICE_H_
#define REDLINE_BACKENDS_ROCR_DEVICE_H_

#include <stdbool.h>
#include <stdint.h>

#include "redline/device/device.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rl_rocr_options_s {
  const char* processor;  // "gfx1100"...; NULL: the first supported agent
  const char* library;    // libhsa-runtime64 path; NULL: env, then default
} rl_rocr_options_t;

rl_status_t rl_rocr_device_create(const rl_rocr_options_t* options,
                                  rl_device_t** out_device);

// The processors redline targets, as a NULL-terminated list.
extern const char* const rl_rocr_supported_processors[];

// True when |isa| is exactly "amdgcn-amd-amdhsa--<supported processor>";
// otherwise writes why not into |reason| ("ISA gfx90a not supported:
// redline targets gfx1100, gfx1151, gfx1201").
bool rl_rocr_isa_supported(const char* isa, char* reason, size_t capacity);

//===----------------------------------------------------------------------===//
// Probe (for `redline doctor`)
//===----------------------------------------------------------------------===//

#define RL_ROCR_PROBE_MAX_AGENTS 16

typedef struct rl_rocr_agent_info_s {
  bool gpu;            // HSA_DEVICE_TYPE_GPU
  char name[64];       // HSA_AGENT_INFO_NAME ("gfx1100", CPU model)
  char vendor[64];     // HSA_AGENT_INFO_VENDOR_NAME
  char isa[96];        // exact ISA name; "" when the agent has none
  bool supported;      // a GPU with a supported ISA
  char reason[192];    // why not supported
} rl_rocr_agent_info_t;

typedef struct rl_rocr_probe_s {
  bool loaded;                 // the library opened and resolved
  char library_path[512];      // the path that loaded
  char tried[2048];            // every path tried with its result
  bool initialized;            // hsa_init succeeded
  char error[1024];            // why not loaded / initialised
  uint16_t version_major;      // HSA_SYSTEM_INFO_VERSION_MAJOR/MINOR
  uint16_t version_minor;
  uint32_t agent_count;
  rl_rocr_agent_info_t agents[RL_ROCR_PROBE_MAX_AGENTS];
} rl_rocr_probe_t;

// Loads the library (|library| as rl_rocr_options_t.library), initialises
// the runtime, lists the agents, shuts it down and closes it. Never fails:
// everything it found, or why not, is in *|out_probe| (cleared first).
void rl_rocr_probe(const char* library, rl_rocr_probe_t* out_probe);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_BACKENDS_ROCR_DEVICE_H_
