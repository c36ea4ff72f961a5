// pm4/pm4_lower.h — lowering a capture into one PM4 command stream (one
// indirect buffer, or a chain of them) inside one AMD vendor AQL packet
// (route pm4).
//
// The stream (straight-line; pm4_reference.md §1.3, §2, §3.4, §4.4):
//
//   entry     ACQUIRE_MEM(family->gcr_acquire_entry): the host wrote the
//             kernarg segment and buffers since the last run, so K$, V$,
//             GL1, GL2 and the instruction cache are invalidated (a system
//             acquire); the first launch's registers then also set the
//             constants COMPUTE_START_X..Z = 0, RESTART_X..Z = 0,
//             RESOURCE_LIMITS = 0 (no limits), TMPRING_SIZE (0 without
//             scratch) and, for a capture with scratch, the scratch base
//             (rl_pm4_scratch_t below) once: nothing in the IB changes
//             them afterwards.
//   launch i  when the hazard plan needs a wait before it (i > 0):
//             EVENT_WRITE CS_PARTIAL_FLUSH (every earlier dispatch
//             finished) + ACQUIRE_MEM(family->gcr_acquire) (drop the K$,
//             V$ and GL1 lines a consumer could read stale);
//             SET_SH_REG of the launch's registers —
//               COMPUTE_PGM_LO/HI = entry >> 8 / entry >> 40,
//               COMPUTE_PGM_RSRC1 = descriptor rsrc1 (| PRIV when
//                 family->rsrc1_priv_for_pm4: the gfx11 CWSR workaround),
//               COMPUTE_PGM_RSRC2 = descriptor rsrc2 | LDS_SIZE =
//                 ceil((static + dynamic LDS) / 512),
//               COMPUTE_PGM_RSRC3 = descriptor rsrc3,
//               COMPUTE_NUM_THREAD_X/Y/Z = the block,
//               COMPUTE_USER_DATA_0.. = the user SGPRs the kernel's code
//                 properties enable, in AMDGPUUsage order: dispatch ptr
//                 (the address of this launch's dispatch-packet image),
//                 kernarg segment ptr (this launch's slice), dispatch id
//                 (the launch's index in the step: a PM4 dispatch has no
//                 AQL packet id) and private segment size (the kernel's
//                 fixed size, as the AQL route's packet says);
//             DISPATCH_DIRECT with the work-group counts and
//             COMPUTE_DISPATCH_INITIATOR = COMPUTE_SHADER_EN |
//             FORCE_START_AT_000 | ORDER_MODE | CS_W32_EN (from the
//             descriptor's wave32 property, never inherited). ORDER_MODE
//             lets waves launch out of order, as radeonsi, RADV and PAL do
//             on every gfx7+ compute dispatch; HIP promises no work-group
//             launch order, and ordered append is never used.
//   end       RELEASE_MEM CACHE_FLUSH_AND_INV_TS_EVENT at end of pipe
//             (event index 5) with family->release_gcr_writeback (GL2
//             write-back), no data and no interrupt. An end-of-pipe event
//             waits for every earlier dispatch to finish (the Linux fence
//             on gfx11 relies on the same), so no CS_PARTIAL_FLUSH precedes
//             it; the write-back makes the results visible at system scope
//             before the packet processor signals the AQL packet's
//             completion signal, which it does after the IB returns.
//
// Chained IBs (docs/pm4-chaining.md): the stream lies in one allocation at
// |ib_address|; when it is longer than one IB may be (options.ib_max_dwords,
// at most RL_PM4_IB_MAX_DWORDS, the 20-bit IB_SIZE), it is cut at a packet
// boundary into IBs that follow each other in that memory. Each IB but the
// last ends with a NOP padding it to a multiple of RL_PM4_IB_PAD_DWORDS
// (chain packet included; never a one-dword NOP) and an INDIRECT_BUFFER
// with CHAIN=1 and VALID=1 to the next dword, whose IB_SIZE is the next
// IB's size; the vendor packet jumps to the first IB with its size
// (stats.entry_dwords). An IB is closed before a packet when the largest
// packet lowering builds and the close might not fit it, so a chained IB
// may end a few dozen dwords short of the limit. Offsets (patch sites,
// dispatch offsets, census errors) count dwords from the start of the
// stream, across IBs. A CP follows the chain without returning, and the SH
// registers persist across it, so register retention is unaffected.
//
// Relay (inputs.relay_address != 0; rl_replay_options_t.pm4_device_patch):
// the command processor, not the host, writes the changed kernarg values.
// Every distinct expression of the capture's kernarg bindings gets an
// 8-byte slot in a small block at |relay_address| (slot order: first use
// in launch order; rl_pm4_relay_slot_count). Each kernarg binding at a
// 4-byte aligned offset is a relayed site (capture/bind/bind_table.h): apply
// writes its slot, and the IB copies the slot into the site with
//   COPY_DATA SRC_SEL 2 (TC_L2) -> DST_SEL 2 (TC_L2), WR_CONFIRM,
//             COUNT_SEL 64 bits for an 8-byte aligned 8-byte site, else
//             one 32-bit copy per dword (PAL MEC_COPY_DATA; the slot's low
//             dword is the 32-bit value, little-endian)
// placed so that an invalidating ACQUIRE_MEM lies between the copy and the
// launch's dispatch (the K$ and GL1 may hold the segment's line from the
// previous run or from a launch sharing it): before the entry acquire for
// launch 0 and every launch the plan runs without a wait, and just before
// the CS_PARTIAL_FLUSH of a launch that waits — after the previous
// dispatch, so on hardware the copies run while it does. WR_CONFIRM makes
// each write reach L2 before the CP moves on. A run then stores one slot
// per changed expression on the host, whatever the number of launches; the
// CP's work grows by one 6-dword packet per relayed site (stats.copies).
// Grid bindings stay host-written (the IB's DISPATCH_DIRECT dims: the CP
// prefetches the IB, so it must not rewrite it), as do dispatch images.
//
// Register retention (options.retain): the lowering keeps the value every
// SH register holds at each point of the straight-line IB (unknown at
// entry: whatever the AQL firmware left), and skips a write whose value is
// already there. Consecutive launches of one kernel then rewrite only the
// kernarg pointer's low half (USER_DATA) and DISPATCH_DIRECT. Writes of
// consecutive registers share one SET_SH_REG; a gap of one register whose
// value is known is written again (1 dword) rather than opening a second
// packet (2 dwords). Retention never elides a value that differs: the
// register file every dispatch sees is the one without retention (the
// census and tests/unit/pm4/pm4_retain_test.c prove it on the decoded IB). It
// assumes nothing but the IB writes SH registers between its packets: true
// for the packets of one IB on one queue; that a mid-IB preemption (CWSR)
// restores them with the queue state is assumed, not verified here
// (hipfire's retained PM4 relies on the same on gfx1100/1151/1201).
//
// Not written (left to the AQL queue's firmware and the KFD): the CU masks
// (STATIC_THREAD_MGMT_*), DISPATCH_INTERLEAVE.
//
// Kernarg segment: the kernarg slices laid out as the AQL route does
// (aql/aql_kernarg.h: each slice at a multiple of max(kernarg
// alignment, 16)), then, 64-byte aligned, one 64-byte
// hsa_kernel_dispatch_packet_t image per launch whose kernel enables the
// dispatch ptr (workgroup/grid sizes, segment sizes, kernel object, kernarg
// address — what radeonsi and tinygrad also build for such kernels).
//
// Validate → plan → reserve → emit: every error is raised before anything
// is allocated:
//   RL_STATUS_INVALID_ARGUMENT  missing inputs, no launches, a plan not of
//                               the whole capture, no completion signal,
//                               options.ib_max_dwords outside
//                               RL_PM4_IB_MIN_DWORDS..RL_PM4_IB_MAX_DWORDS,
//                               misaligned kernarg segment or IB address;
//   RL_STATUS_UNSUPPORTED       a processor without a PM4 family; a kernel
//                               enabling its private segment without a
//                               fixed size; a kernel enabling a user SGPR the
//                               engine cannot provide (private segment
//                               buffer, queue ptr, flat scratch init,
//                               kernarg preload)
//                               or whose RSRC2.USER_SGPR is below what its
//                               code properties enable (above is padding:
//                               LLVM's gfx1100 UserSGPRInit16Bug workaround)
//                               — named: kernel, property;
//   RL_STATUS_CONTRACT          a launch whose geometry, LDS, entry address
//                               or binding cannot be encoded (named: launch,
//                               kernel, binding); a stream over
//                               RL_PM4_STREAM_MAX_DWORDS;
//   RL_STATUS_INTERNAL          the family table lacks a field lowering
//                               encodes;
//   RL_STATUS_OUT_OF_MEMORY.
//
// Patch table, per launch in order: its pointer slots, then its bindings;
// a grid binding is a GRID_DIM site, followed by a GRID_SIZE site when the
// launch has a dispatch-packet image. rl_bind_table_apply over
// rl_pm4_program_dests re-binds it (capture/bind/bind_table.h); its evaluator is
// the AQL route's (rl_launch_site_value).
//
// Census (rl_pm4_program_check): decodes the whole IB with
// rl_pm4_decode_next while simulating the SH register file, and checks:
// only the packets above; dispatches == launches, at the recorded offsets;
// every dispatch sees exactly the registers and initiator above (kernarg
// pointer = its slice, inside the segment with its whole kernarg; dispatch
// ptr = its image, which decodes as a valid dispatch packet), dims = grid
// (a bound axis: its patch's current value); the entry acquire first, a
// flush + acquire exactly before the launches the plan makes wait, the
// release last; every patch site inside the IB or its slice/image and
// holding |current| (a relayed site: its slot holds it); with relay, every
// relayed site copied exactly once from its expression's slot by a
// COPY_DATA of the encoding above, before the entry acquire or between a
// dispatch and the next CS_PARTIAL_FLUSH, with an ACQUIRE_MEM between the
// copy and the site's dispatch; the chain: every IB at most
// RL_PM4_IB_MAX_DWORDS, entered at its first dword, with NOP padding only
// just before a chain packet, each chain packet the last packet of its IB,
// a multiple of RL_PM4_IB_PAD_DWORDS long, naming the next dword with the
// next IB's size, the last IB ending at the end of the stream; the vendor
// packet's INDIRECT_BUFFER jumping to the stream's address with the first
// IB's size.
// Failures are RL_STATUS_PREPARE naming the IB dword offset (of the value
// that is wrong when the stream has one) and what was expected and found.
//
// Thread-safety: pure functions of their arguments; a program is owned by
// one thread.
#ifndef REDLINE_PM4_PM4_LOWER_H_
#define REDLINE_PM4_PM4_LOWER_H_

#include <stdbool.h>
#include <stdint.h>

#include "aql/aql_packet.h"
#include "capture/bind/bind_table.h"
#include "pm4/pm4_family.h"
#include "pm4/pm4_packet.h"
#include "redline/capture.h"
#include "redline/hazard.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// image_offsets entry of a launch without a dispatch-packet image.
#define RL_PM4_NO_IMAGE UINT32_MAX

typedef enum rl_pm4_patch_kind_e {
  RL_PM4_PATCH_KERNARG = 0,    // |size| bytes at segment byte |offset|
  RL_PM4_PATCH_POINTER = 1,    // 8 bytes at segment byte |offset|
  RL_PM4_PATCH_GRID_DIM = 2,   // DISPATCH_DIRECT dim at IB dword |offset|:
                               // work-groups
  RL_PM4_PATCH_GRID_SIZE = 3,  // dispatch image grid_size at segment byte
                               // |offset|: work-items
} rl_pm4_patch_kind_t;

typedef struct rl_pm4_patch_s {
  rl_pm4_patch_kind_t kind;
  uint32_t launch;
  uint32_t axis;     // 0..2 (GRID_*)
  uint32_t offset;   // segment byte, or IB dword (GRID_DIM)
  uint32_t size;     // bytes: 4 or 8
  uint32_t binding;  // binding index in the launch (KERNARG, GRID_*)
  uint32_t slot;     // slot index in the launch (POINTER)
} rl_pm4_patch_t;

// The bind table destinations of a PM4 program: the kernarg segment image
// (mirror: the device's segment) and the IB (mirror: the device's IB).
enum { RL_PM4_DEST_KERNARG = 0, RL_PM4_DEST_IB = 1, RL_PM4_DEST_RELAY = 2 };

// A binding without a relay slot (see Relay above).
#define RL_PM4_RELAY_NONE UINT32_MAX

// What lowering needs to know about the prepared device state.
typedef struct rl_pm4_lower_inputs_s {
  const rl_capture_t* capture;
  const rl_hazard_plan_t* plan;        // of the whole capture
  const uint64_t* buffer_addresses;    // one per capture buffer
  const uint64_t* kernel_objects;      // `.kd` address, one per kernel
  const uint64_t* kernel_entries;      // load base + entry_address, one per
                                       // kernel (256-byte aligned)
  uint64_t kernarg_address;            // device address of the segment
  uint64_t ib_address;                 // device address of the IB
  uint64_t completion_signal;          // device address of the signal
  const int64_t* param_values;         // initial values, one per param
  // Device address of the scratch ring (rl_pm4_scratch_layout below):
  // 256-byte aligned, below 2^48, at least |bytes| long; 0 when the
  // capture has no scratch kernel (then it is not read).
  uint64_t scratch_address;
  // Device address of the relay slots (see Relay above): 8-byte aligned,
  // rl_pm4_relay_slot_count x 8 bytes, host-visible; 0: no relay, the host
  // writes every changed site.
  uint64_t relay_address;
} rl_pm4_lower_inputs_t;

// The number of relay slots of |capture|: the distinct expressions of its
// kernarg bindings at 4-byte aligned offsets (RL_STATUS_OUT_OF_MEMORY, or
// RL_STATUS_CONTRACT for more bindings than fit, leave *|out_count| 0).
rl_status_t rl_pm4_relay_slot_count(const rl_capture_t* capture,
                                    uint32_t* out_count);

// Scratch (private segment) of a capture on route pm4. gfx11 and gfx12 use
// architected flat scratch: the CP hands every wave that has
// COMPUTE_PGM_RSRC2.SCRATCH_EN one slot of a ring at
// COMPUTE_DISPATCH_SCRATCH_BASE_LO/HI (address >> 8 / address >> 40);
// COMPUTE_TMPRING_SIZE.WAVESIZE is the slot size in 256-byte units and
// WAVES the slot count per shader engine (Mesa ac_get_scratch_tmpring_size;
// docs/pm4-scratch.md). Lowering writes TMPRING_SIZE and the base once with
// the entry constants: WAVESIZE covers the largest scratch kernel of the
// capture (lanes x its fixed private size, rounded up to 256 bytes; Mesa
// never lowers WAVESIZE either), WAVES is RL_PM4_SCRATCH_WAVES_PER_SE, and
// the ring holds WAVES slots for each of the family's shader engines (one
// COMPUTE_STATIC_THREAD_MGMT_SE register each). A wave without a free slot
// waits for one, so the ring bounds concurrency, not the grid. Without a
// scratch kernel TMPRING_SIZE is 0 and no base is written.
#define RL_PM4_SCRATCH_WAVES_PER_SE 32u
#define RL_PM4_SCRATCH_WAVESIZE_UNIT 256u

typedef struct rl_pm4_scratch_s {
  uint32_t tmpring_size;  // the COMPUTE_TMPRING_SIZE value (0: no scratch)
  uint32_t wave_bytes;    // WAVESIZE in bytes
  uint32_t waves;         // WAVES (per shader engine)
  uint64_t bytes;         // the ring: waves x engines x wave_bytes
} rl_pm4_scratch_t;

// The scratch of |capture| (the kernels some launch uses), so the caller
// can allocate the ring before lowering. RL_STATUS_UNSUPPORTED for a
// processor without a PM4 family or a kernel that enables its private
// segment without a fixed size (a dynamic stack of unknown size), naming
// it; RL_STATUS_CONTRACT when a slot does not fit WAVESIZE.
rl_status_t rl_pm4_scratch_layout(const rl_capture_t* capture,
                                  rl_pm4_scratch_t* out_scratch);

// The smallest IB limit options.ib_max_dwords accepts: the largest packet
// lowering builds plus an IB's close fit in it.
#define RL_PM4_IB_MIN_DWORDS 128u
// The longest stream lowering builds (4 GiB of IBs; offsets stay 32-bit).
#define RL_PM4_STREAM_MAX_DWORDS (1u << 30)

typedef struct rl_pm4_lower_options_s {
  bool retain;  // register-state retention (see above)
  // The largest IB of the chain (see Chained IBs); 0: RL_PM4_IB_MAX_DWORDS,
  // what the hardware allows. Tests set a small one to chain small captures.
  uint32_t ib_max_dwords;
} rl_pm4_lower_options_t;

typedef struct rl_pm4_stats_s {
  uint32_t dwords;              // the stream's size, every IB of the chain
  uint32_t entry_dwords;        // the first IB's (= dwords without chains)
  uint32_t chains;              // INDIRECT_BUFFER CHAIN packets (IBs - 1)
  uint32_t dispatches;          // DISPATCH_DIRECT packets (= launches)
  uint32_t waits;               // CS_PARTIAL_FLUSH packets
  uint32_t acquires;            // ACQUIRE_MEM packets (entry included)
  uint32_t releases;            // RELEASE_MEM packets
  uint32_t set_sh_reg_packets;
  uint32_t registers_written;   // register values in SET_SH_REG packets
  uint32_t registers_elided;    // writes retention skipped
  uint32_t patch_sites;
  uint32_t copies;              // COPY_DATA packets (relay)
} rl_pm4_stats_t;

// Dwords per dispatch (0 without dispatches).
static inline double rl_pm4_stats_dwords_per_dispatch(
    const rl_pm4_stats_t* stats) {
  return stats->dispatches ? (double)stats->dwords / stats->dispatches : 0.0;
}

typedef struct rl_pm4_program_s {
  const rl_pm4_family_t* family;
  bool retain;
  uint32_t ib_max_dwords;         // the IB limit it was built with
  uint32_t dword_count;           // the whole stream (stats.dwords)
  uint32_t* dwords;               // the stream (kept current by apply)
  uint32_t* dispatch_offsets;     // per launch: its DISPATCH_DIRECT header
  uint32_t kernarg_size;          // segment bytes: slices, then images
  uint8_t* kernarg;               // its image (kept current by apply)
  uint32_t* kernarg_offsets;      // per launch, into the segment
  uint32_t* image_offsets;        // per launch, or RL_PM4_NO_IMAGE
  uint32_t image_count;
  uint32_t patch_count;
  rl_pm4_patch_t* patches;
  uint32_t relay_count;           // relay slots (0 without relay)
  uint8_t* relay;                 // their image, 8 bytes each
  // The same sites compiled for apply (capture/bind/bind_table.h), site i =
  // patch i; it holds each site's current value.
  rl_bind_table_t* binds;
  rl_aql_pm4_ib_packet_t packet;  // the vendor packet, header included
  rl_pm4_stats_t stats;
} rl_pm4_program_t;

// The kernarg segment size lowering lays out for |capture| (slices, then
// dispatch-packet images), so the caller can allocate it first; 0 when
// the capture has no launches or the segment does not fit 32 bits.
uint32_t rl_pm4_kernarg_segment_size(const rl_capture_t* capture);

// Validates |inputs| like rl_pm4_lower (|ib_address| and
// |completion_signal| are not read) and returns the exact stream size the
// lowering will produce (every IB of the chain), so the caller can
// allocate it before lowering into it.
rl_status_t rl_pm4_lower_measure(const rl_pm4_lower_inputs_t* inputs,
                                 const rl_pm4_lower_options_t* options,
                                 uint32_t* out_ib_dwords);

// Lowers the whole capture of |inputs|; |options| may be NULL (retention
// on). *|out_program| is cleared on entry.
rl_status_t rl_pm4_lower(const rl_pm4_lower_inputs_t* inputs,
                         const rl_pm4_lower_options_t* options,
                         rl_pm4_program_t** out_program);

// The census above, against the inputs lowering used. Changes nothing;
// valid at any time, after a re-bind too.
rl_status_t rl_pm4_program_check(const rl_pm4_program_t* program,
                                 const rl_pm4_lower_inputs_t* inputs);

// The destinations of |program|'s bind table with the given mirrors (may
// be NULL): for rl_bind_table_apply directly.
void rl_pm4_program_dests(rl_pm4_program_t* program, uint8_t* kernarg_host,
                          uint32_t* ib_host, uint8_t* relay_host,
                          rl_bind_dest_t out_dests[RL_BIND_MAX_DESTS]);

// Releases |program|; NULL is ignored.
void rl_pm4_program_destroy(rl_pm4_program_t* program);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_PM4_PM4_LOWER_H_
