// tests/standins/hsa/standin_hsa.h — a stand-in for ROCr's
// libhsa-runtime64.so.1, built for tests only, over redline's simulated GPU
// (sim/sim.h). It is selected only through REDLINE_HSA_LIBRARY=PATH:
// it is never installed nor on the default search path. Its SONAME is the
// real one, and it implements exactly the subset of hsa.h/hsa_ext_amd.h the
// rocr device uses, with the real prototypes (the definitions are checked
// against Debian's headers).
//
// How it maps onto the simulator (one rl_sim device per hsa_init):
//   agents      a CPU agent, then one GPU agent whose ISA is
//               $REDLINE_STANDIN_ISA (default amdgcn-amd-amdhsa--gfx1100);
//               the sim runs gfx1100/gfx1151/gfx1201 (others: gfx1100, so
//               redline's refusal of the ISA is what gets tested);
//   memory      the CPU agent's KERNARG_INIT fine-grained pool and the GPU's
//               coarse-grained pool are sim allocations (KERNARG / DEVICE).
//               Pointers returned are *sim device addresses*, which the
//               host cannot dereference: hsa_amd_pointer_info returns the
//               sim's host view as hostBaseAddress for fine-grained memory
//               and NULL for coarse memory, and hsa_memory_copy translates.
//               (Real ROCr returns equal addresses for system memory; the
//               stand-in keeps them apart so a backend that confuses them
//               fails here.) The GPU is not allowed to access the kernarg
//               pool by default (HSA_AMD_MEMORY_POOL_ACCESS_
//               DISALLOWED_BY_DEFAULT), so the allow_access path runs.
//   queues      a sim queue: hsa_queue_t lives in the first bytes of the
//               sim's amd_queue_t-shaped descriptor, so write_dispatch_id
//               (56) and read_dispatch_id (128) are the very ids the sim's
//               command-processor thread reads and writes; base_address is
//               the host view of the sim ring the CP consumes. The doorbell
//               signal is a stand-in handle; storing to it checks the
//               publication (standin_hsa_hooks.h) and rings the sim
//               doorbell. A monitor thread per queue turns a sim queue
//               fault into the hsa_queue_create error callback.
//   signals     sim signals; the handle is the sim address of the
//               amd_signal_t-shaped object (as on ROCr). Timeouts are in
//               ticks of the 100 MHz system timestamp (the sim's clock), so
//               a caller passing nanoseconds waits 100x too long.
//   code        readers parse with rl_code_object_parse; loading into an
//               executable is the sim loader; `<kernel>.kd` symbols report
//               the sim kernel object.
//
// Thread-safety: one global lock guards the tables; the sim's own threads
// synchronise with it as in sim.h.
#ifndef REDLINE_TESTS_STANDINS_HSA_STANDIN_HSA_H_
#define REDLINE_TESTS_STANDINS_HSA_STANDIN_HSA_H_

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "redline/code_object.h"
#include "redline/device/device.h"
#include "tests/standins/hsa/standin_hsa_hooks.h"

#define RL_STANDIN_EXPORT __attribute__((visibility("default")))

// hsa.h declares these two with empty parentheses, which C does not count
// as prototypes; these compatible declarations are.
hsa_status_t hsa_init(void);
hsa_status_t hsa_shut_down(void);

// Handles of the fixed objects.
#define RL_STANDIN_CPU_AGENT 0x5A0001ull
#define RL_STANDIN_GPU_AGENT 0x5A0002ull
#define RL_STANDIN_GPU_ISA 0x5A0101ull
#define RL_STANDIN_KERNARG_POOL 0x5A0201ull
#define RL_STANDIN_DEVICE_POOL 0x5A0202ull
#define RL_STANDIN_GROUP_POOL 0x5A0203ull
#define RL_STANDIN_TIMESTAMP_HZ 100000000ull
#define RL_STANDIN_QUEUE_MIN 64u
#define RL_STANDIN_QUEUE_MAX 131072u
// Written into bytes 4..63 of every free ring slot.
#define RL_STANDIN_POISON_BYTE 0xCC
#define RL_STANDIN_MAX_ALLOCATIONS 4096u
#define RL_STANDIN_MAX_SIGNALS 4096u
#define RL_STANDIN_MAX_QUEUES 64u

typedef struct rl_standin_allocation_s {
  uint64_t address;
  uint64_t size;
  uint64_t pool;
  bool gpu_allowed;  // kernarg pool: hsa_amd_agents_allow_access done
} rl_standin_allocation_t;

typedef struct rl_standin_queue_s {
  rl_device_queue_t sim_queue;
  hsa_queue_t* hsa;  // inside the sim descriptor
  void (*callback)(hsa_status_t, hsa_queue_t*, void*);
  void* callback_data;
  uint64_t last_doorbell;  // one past the last id rung
  uint64_t poisoned_to;    // consumed ids below this were re-poisoned
  pthread_t monitor;
  atomic_bool stop;
  atomic_bool reported;  // the callback ran
} rl_standin_queue_t;

typedef struct rl_standin_s {
  pthread_mutex_t lock;
  int refcount;
  rl_device_t* sim;
  char isa[96];
  char processor[32];
  rl_standin_allocation_t allocations[RL_STANDIN_MAX_ALLOCATIONS];
  uint32_t allocation_count;
  uint64_t signals[RL_STANDIN_MAX_SIGNALS];  // live handles
  uint32_t signal_count;
  rl_standin_queue_t* queues[RL_STANDIN_MAX_QUEUES];
  uint32_t queue_count;
} rl_standin_t;

extern rl_standin_t rl_standin;

// standin_hsa_runtime.c
// Records a misuse error (printf-style).
void rl_standin_error(const char* format, ...)
    __attribute__((format(printf, 1, 2)));
void rl_standin_set_fault(const char* message);
// Counts a free while a queue was busy (the caller records the error).
void rl_standin_note_busy_free(void);
bool rl_standin_live(void);  // hsa_init was called and not undone
bool rl_standin_env_flag(const char* name);

// standin_hsa_memory.c
// The allocation holding [address, address + size) or NULL; lock held.
rl_standin_allocation_t* rl_standin_find_allocation_locked(uint64_t address,
                                                           uint64_t size);
void rl_standin_memory_release_all_locked(void);

// standin_hsa_signal.c
bool rl_standin_signal_live_locked(uint64_t handle);
void rl_standin_signal_release_all_locked(void);

// standin_hsa_corrupt.c: REDLINE_STANDIN_CORRUPT_DISPATCH=N corrupts one
// byte of dispatch N's output (see the file). start: at hsa_init's sim
// creation; poll: after every signal wait or load (lock not held).
void rl_standin_corrupt_start(rl_device_t* sim);
void rl_standin_corrupt_poll(void);

// standin_hsa_queue.c
// The queue whose doorbell is |handle|, or NULL; lock held.
rl_standin_queue_t* rl_standin_queue_by_doorbell_locked(uint64_t handle);
void rl_standin_queue_doorbell(rl_standin_queue_t* queue, int64_t value);
// True when some queue that has not faulted still has packets in flight.
bool rl_standin_queue_any_busy_locked(void);
void rl_standin_queue_release_all_locked(void);

// standin_hsa_loader.c
void rl_standin_loader_release_all_locked(void);

#endif  // REDLINE_TESTS_STANDINS_HSA_STANDIN_HSA_H_
