// sim/cp/sim_cp.h — the simulated command processor (module sim/cp:
// sim_queue.c, sim_cp.c, sim_pm4.c, sim_pm4_dispatch.c, sim_pm4_batch.c):
// the AQL queues and their doorbells, one CP thread per queue that decodes
// packets and hands dispatches to sim/wg, and the PM4 interpreter for
// PM4-IB packets. Calls down only: sim/wg, sim/signal, sim/mem, sim/clock.
//
// The PM4 interpreter (sim_pm4*.c): what the command processor does with a
// vendor PM4-IB AQL packet (AMD_AQL_FORMAT_PM4_IB).
//
// Entry. aql_decode.c has already checked the AQL slot the way ROCR builds
// it (ib_jump_cmd is a complete INDIRECT_BUFFER 0xC0023F00 with VALID and a
// nonzero size, dw_cnt_remain 0xA, reserved dwords zero). If the packet's
// (or any later AQL packet's the CP steps through) acquire fence scope is not
// NONE, the packet-start cache invalidate counts as an ACQUIRE_MEM (below).
// Then the IB it points to is executed, every dispatch in it is drained, the
// batch's hazards are reported, and the packet retires like any other (header
// INVALID, read id + 1, completion signal - 1).
//
// Fetching. Each IB is copied from device memory through translation when
// execution enters it ([address, address + 4 * size) must lie inside one
// live allocation, else a VM fault) and split into packets by
// rl_pm4_decode_next (pm4/pm4_decode.h), the one PM4 decoder. INDIRECT_BUFFER
// nests (the inner IB runs, then execution returns) up to
// RL_SIM_PM4_MAX_DEPTH levels counting the packet's own IB; with CHAIN set
// execution continues in the new IB and does not return (the chaining IB is
// replaced at its level), as a CP does with a command stream longer than one
// IB (docs/pm4-chaining.md): every IB of a chain is fetched and
// bounds-checked on entry like the first, and a chain to a zero-size,
// invalid, misaligned or unmapped IB faults naming the chain packet (a
// real CP would hang or fault the VM there). At most RL_SIM_PM4_MAX_CHAINS
// chained IBs and RL_SIM_PM4_MAX_PACKETS packets run per AQL packet, so a
// chain loop faults instead of spinning (where a real CP would spin until
// the queue is reset); the queue's stop flag
// is re-checked every 4,096 packets, in every WAIT_REG_MEM round and before
// every work-group (inside one: sim_executor.h rl_sim_wg_stopping).
//
// Register file. One per queue: the SH window 0x2C00..0x2FFF as dwords plus
// a written bit per register. It persists across IBs and packets on the
// queue, as the hardware's does; a register never written has no known
// value, so a DISPATCH_DIRECT that needs one faults (sim_pm4_dispatch.c).
//
// Packets executed (MEC layouts, pm4_reference.md §1.3); anything else is a
// fault naming the IB, the dword offset and the opcode:
//   NOP, type-2 filler; SET_SH_REG (index/VMID bits must be zero);
//   DISPATCH_DIRECT (launches a dispatch: it is in flight until a wait);
//   EVENT_WRITE CS_PARTIAL_FLUSH (type 7, index 4): compute idle, every
//     dispatch in flight completes;
//   ACQUIRE_MEM: a cache acquire when GCR_CNTL invalidates the scalar and
//     vector L0 (GLK_INV, GLV_INV) and, on families with GL1, GL1 (GL1_INV);
//     one that does not is executed but acquires nothing. Its GCR_CNTL
//     fields, decoded with the family's table, drive the cache model
//     (sim/mem/sim_mem.h) whatever they are: each level named is acted on;
//   RELEASE_MEM GCR bits (dword 1, 24:12) act on the cache model once the
//     dispatches before it have completed, before its data write;
//   RELEASE_MEM (EVENT_INDEX 5 end-of-pipe or 6 shader-done; DST_SEL memory;
//     DATA_SEL 0 none, 1 low 32 bits, 2 64 bits, 3 GPU clock): the write
//     happens once every dispatch launched before it has completed; INT_SEL
//     is ignored;
//   WAIT_REG_MEM (memory space, OPERATION 0, FUNCTION 0..6): the CP stops
//     until (*address & mask) FUNCTION reference. Dispatches in flight keep
//     running meanwhile; like hardware the wait can last forever, and only
//     the queue's stop flag (queue_destroy) ends it;
//   WRITE_DATA (DST_SEL 2 or 5: memory; ADDR_INCR honoured);
//   COPY_DATA (SRC_SEL 1/2 memory, 5 immediate, 9 GPU clock; DST_SEL 2/5
//     memory; COUNT_SEL 32 or 64 bits);
//   INDIRECT_BUFFER (VALID required).
// GPU-clock values are the device's 100 MHz counter (rl_sim_timestamp).
// CP memory writes are 4-byte atomic stores (release), and WAIT_REG_MEM
// polls with atomic loads (acquire), so a host thread may write the polled
// word with an atomic store.
//
// Ordering and hazards (sim_pm4_batch.c). Dispatches launched since the last
// compute-idle wait are in flight together and run with the same batching
// machinery as unbarriered AQL dispatches (rl_sim_schedule_*): sequentially,
// or with their work-groups interleaved in adversarial mode. A compute-idle
// wait is a CS_PARTIAL_FLUSH (every dispatch launched before it), or a
// WAIT_REG_MEM whose polled dword a RELEASE_MEM of this batch writes (every
// dispatch launched before that RELEASE_MEM). At the end of the IB every
// dispatch completes. The dynamic hazard checker then reports, for each pair
// of dispatches (earlier, later) of the batch:
//   - RAW/WAR/WAW (1..3) when no compute-idle wait separates them;
//   - RL_SIM_HAZARD_RAW_NO_ACQUIRE (4) when one separates them but no
//     ACQUIRE_MEM came after that wait and before the later dispatch was
//     launched, and the later one read bytes the earlier one wrote: the
//     reader may hit stale lines in its L0/GL1.
// The completed-but-not-acquired writers of earlier batches on the queue
// stay candidates for RAW_NO_ACQUIRE until an acquire (an ACQUIRE_MEM or a
// PM4-IB packet with an acquire fence scope). At most RL_SIM_BATCH_MAX
// dispatches are in flight: launching one more first completes all of them,
// but that is scheduling, not ordering: the ones not behind a compute-idle
// wait move to the open list (sim/wg/sim_wg.h) and later dispatches
// are still checked against them for RAW/WAR/WAW until the next
// compute-idle wait, after which they are RAW_NO_ACQUIRE candidates like
// any other waited-for writer.
//
// Thread-safety: everything here runs on the queue's CP thread.
#ifndef REDLINE_SIM_CP_SIM_CP_H_
#define REDLINE_SIM_CP_SIM_CP_H_

#include <stdbool.h>
#include <stdint.h>

#include "pm4/pm4_decode.h"
#include "pm4/pm4_family.h"
#include "sim/wg/sim_wg.h"

// The SH register window (pm4_packet.h), as a register-file size.
#define RL_SIM_PM4_REG_COUNT (RL_PM4_SH_REG_END - RL_PM4_SH_REG_BASE)
// IB levels, counting the IB the AQL packet points at.
#define RL_SIM_PM4_MAX_DEPTH 16u
// Packets executed per AQL packet (nested and chained IBs included): far
// more than the 2^24 launches a capture may hold need.
#define RL_SIM_PM4_MAX_PACKETS (1u << 26)
// Chained IBs entered per AQL packet: 2^16 full IBs are 2^36 dwords, far
// more than any stream redline builds, while a chain loop (an IB chaining
// to itself) faults after a few milliseconds.
#define RL_SIM_PM4_MAX_CHAINS (1u << 16)
// User SGPRs the CP can load (RSRC2.USER_SGPR is 5 bits; USER_DATA_0..15).
#define RL_SIM_PM4_USER_SGPR_MAX 32u
// RELEASE_MEMs pending in one batch.
#define RL_SIM_PM4_MAX_RELEASES 256u

// A RELEASE_MEM write waiting for the dispatches launched before it.
typedef struct rl_sim_pm4_release_s {
  uint32_t after;  // fires once runs [0, after) of the batch have finished
  bool fired;
  uint32_t data_sel;  // 0 none, 1 32-bit, 2 64-bit, 3 GPU clock
  uint64_t address;
  uint64_t data;
  uint32_t cache_actions;  // GCR bits as RL_SIM_CACHE_* (sim/mem/sim_mem.h)
} rl_sim_pm4_release_t;

// A dispatch of an earlier batch that completed behind a compute-idle wait
// with no acquire since: a RAW_NO_ACQUIRE candidate for later dispatches
// launched in the same acquire epoch.
typedef struct rl_sim_pm4_stale_s {
  uint64_t dispatch_index;
  uint64_t epoch;
  rl_sim_range_set_t writes;
} rl_sim_pm4_stale_t;

// Ordering facts of one in-flight run, parallel to queue->runs.
typedef struct rl_sim_pm4_order_s {
  uint32_t ordered_after;   // runs [0, this) completed before it launched
  uint32_t acquired_after;  // ... and of those, [0, this) were acquired
  uint64_t epoch;           // acquire epoch at launch
} rl_sim_pm4_order_t;

typedef struct rl_sim_pm4_state_s {
  const rl_pm4_family_t* family;
  // Fields of RSRC1..3 the CP owns (may differ from the descriptor).
  uint32_t rsrc1_cp_mask;
  uint32_t rsrc2_cp_mask;
  uint32_t rsrc3_cp_mask;
  // Per cache action (bit k of the RL_SIM_CACHE_* actions, in
  // rl_sim_pm4_gcr_names order), the mask of its field in the family's
  // ACQUIRE_MEM and RELEASE_MEM GCR_CNTL: resolved by name once here, so a
  // packet's decode is six mask tests (sim_pm4.c).
  uint32_t acquire_gcr_mask[6];
  uint32_t release_gcr_mask[6];
  uint32_t regs[RL_SIM_PM4_REG_COUNT];
  uint64_t written[RL_SIM_PM4_REG_COUNT / 64];
  // The batch: runs live in queue->runs[0, queue->run_count).
  rl_sim_pm4_order_t order[RL_SIM_BATCH_MAX];
  // The user SGPRs each run was launched with (rl_sim_dispatch_t points
  // here: the register file may change while the run is in flight).
  uint32_t user_sgprs[RL_SIM_BATCH_MAX][RL_SIM_PM4_USER_SGPR_MAX];
  uint32_t idle_prefix;     // runs [0, this) are behind a compute-idle wait
  uint32_t acquire_prefix;  // runs [0, this) are behind an acquire too
  uint64_t epoch;           // acquires executed on the queue
  rl_sim_pm4_release_t releases[RL_SIM_PM4_MAX_RELEASES];
  uint32_t release_count;
  uint32_t release_fired;  // releases[0, release_fired) have fired
  rl_sim_pm4_stale_t* stale;
  uint32_t stale_count;
  uint32_t stale_capacity;
  // Dispatches a full batch completed with no compute-idle wait yet.
  rl_sim_hazard_open_t open;
  uint64_t rng;
} rl_sim_pm4_state_t;

// What one IB packet did to the CP.
typedef struct rl_sim_pm4_exec_s {
  rl_sim_queue_t* queue;
  rl_sim_pm4_state_t* state;
  uint64_t packet_id;
  uint64_t ib_address;  // the IB being executed and the packet's dword
  uint32_t offset;      // offset in it, for fault messages
  uint32_t opcode;
  uint64_t fault_address;
  bool stopped;  // the queue is stopping: leave without retiring
  // DISPATCH_DIRECTs of this AQL packet so far; more than the device's
  // max_dispatches (rl_sim_options_t) is a fault before the next launch.
  uint32_t dispatches;
  uint32_t chains;  // chained IBs entered (RL_SIM_PM4_MAX_CHAINS)
} rl_sim_pm4_exec_t;

// sim_pm4.c
// Executes the PM4-IB packet |id|. Returns false after a fault (reported
// through rl_sim_queue_set_fault); true when the packet retired or the queue
// is stopping (then it did not retire).
bool rl_sim_pm4_execute_packet(rl_sim_queue_t* queue, uint64_t id,
                               const rl_aql_decoded_t* packet);
// Frees the PM4 state of a queue (NULL is fine).
void rl_sim_pm4_state_destroy(rl_sim_pm4_state_t* state);
// Atomic dword-granular CP memory access through translation; false when
// the range is not inside one live allocation. |address| 4-byte aligned.
bool rl_sim_pm4_store(rl_sim_queue_t* queue, uint64_t address, const void* data,
                      uint32_t size);
bool rl_sim_pm4_load(rl_sim_queue_t* queue, uint64_t address, void* out_data,
                     uint32_t size);

// sim_pm4_dispatch.c
// Builds the launch of a DISPATCH_DIRECT with work-group counts |dims| and
// |initiator| from the register file, checking it the way hardware would
// use it (see that file).
rl_status_t rl_sim_pm4_dispatch_launch(rl_sim_pm4_exec_t* exec,
                                       const uint32_t dims[3],
                                       uint32_t initiator,
                                       rl_sim_launch_t* out_launch);
// True when register |index| (dword index in the SH window) was written.
bool rl_sim_pm4_reg_written(const rl_sim_pm4_state_t* state, uint32_t index);

// sim_pm4_batch.c
// Validates |launch|, begins it and adds it to the batch (completing the
// batch first when RL_SIM_BATCH_MAX runs are in flight).
rl_status_t rl_sim_pm4_batch_launch(rl_sim_pm4_exec_t* exec,
                                    const rl_sim_launch_t* launch);
// CS_PARTIAL_FLUSH (and the end of the IB): completes every run, reports the
// batch's hazards and empties it.
rl_status_t rl_sim_pm4_batch_idle(rl_sim_pm4_exec_t* exec);
// ACQUIRE_MEM that invalidates the L0/GL1 caches.
void rl_sim_pm4_batch_acquire(rl_sim_pm4_state_t* state);
// RELEASE_MEM: queues the write behind every run launched so far (or does it
// now when they have all finished).
rl_status_t rl_sim_pm4_batch_release(rl_sim_pm4_exec_t* exec,
                                     const rl_sim_pm4_release_t* release);
// WAIT_REG_MEM on memory: |test| is called with the polled dword until it
// returns true; in flight runs progress meanwhile.
rl_status_t rl_sim_pm4_batch_wait(rl_sim_pm4_exec_t* exec, uint64_t address,
                                  uint32_t function, uint32_t reference,
                                  uint32_t mask);
// Ends every begun run and forgets the batch (after a fault or a stop).
void rl_sim_pm4_batch_abandon(rl_sim_pm4_exec_t* exec);

// sim_queue.c
rl_status_t rl_sim_queue_create(rl_device_t* device, uint32_t packet_count,
                                rl_device_queue_t* out_queue);
rl_status_t rl_sim_queue_destroy(rl_device_t* device, rl_device_queue_t* queue);
void rl_sim_queue_doorbell(rl_device_t* device, rl_device_queue_t* queue,
                           uint64_t packet_id);
bool rl_sim_queue_idle(rl_device_t* device, const rl_device_queue_t* queue);
void rl_sim_queue_progress(rl_device_t* device, const rl_device_queue_t* queue,
                           rl_device_progress_t* out_progress);
void rl_sim_queue_fault(rl_device_t* device, const rl_device_queue_t* queue,
                        rl_device_fault_t* out_fault);
// Stops and joins the command processor of every queue still live on
// |device| and frees them: what the device's destruction does first, so no
// CP thread runs a kernel into memory that is being freed. Packets in
// flight are abandoned at the next work-group boundary or, inside a
// work-group, at the executor's next stop poll (sim_executor.h
// rl_sim_wg_stopping: every RL_SIM_WG_STOP_POLL wave-instructions); every
// CP loop re-checks the stop flag there and in every wait slice.
void rl_sim_queues_stop_all(rl_sim_device_t* device);
// Puts |queue| in the error state with |message| (consumes |status| when
// not OK, appending its message). Called from the CP thread only.
void rl_sim_queue_set_fault(rl_sim_queue_t* queue, uint64_t packet_id,
                            uint64_t address, const char* what,
                            rl_status_t status);

// sim_cp.c
void* rl_sim_cp_main(void* queue);

#endif  // REDLINE_SIM_CP_SIM_CP_H_
