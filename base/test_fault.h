// base/test_fault.h — test-only fault injection, compiled into every
// build and off unless the environment asks for it. Private to redline.
//
// REDLINE_TEST_FAULT=NAME[:INDEX][,NAME[:INDEX]]... (at most 4) makes named
// mistakes in the engine, so a test can prove that a checker fails when
// that mistake is made (the mutation proof of tools/shadow_mutations.sh,
// docs/shadow-mutations.md). Without an INDEX a fault applies at every
// index; a malformed value turns every fault off. The faults:
//   drop-barrier:I  AQL lowering: packet I gets no barrier bit
//   drop-wait:I     PM4 lowering: no CS_PARTIAL_FLUSH + ACQUIRE_MEM before
//                   launch I
//   drop-acquire:I  PM4 lowering: the wait before launch I has no
//                   ACQUIRE_MEM
//   miss-raw, miss-war, miss-waw
//                   hazard analysis (capture/hazard/hazard.c): conflicts of that
//                   kind never make a boundary wait (the index is the later
//                   launch)
//   patch-off:I     AQL and PM4 patch writes: a scalar kernarg patch of
//                   launch I lands 4 bytes after its site
//   patch-skip:I    ... a scalar kernarg patch of launch I is not written
//   grid-skip:I     ... a grid patch of launch I is not written
//                   (host-written sites only: a relayed site's value is
//                   the device's copy, see nop-copy)
//   bind-stale:I    binding evaluation (capture/bind/launch_bind.c): the kernarg
//                   bindings of launch I are evaluated at the capture's
//                   parameter values, as if the binding were lost; every
//                   route (eager included) then agrees on the wrong bytes
//   retain-any-value  PM4 lowering: register retention skips a SET_SH_REG
//                   whenever the register was written before, whatever
//                   value it held (retention that ignores the value)
//   variable-copy:I replay prepare (routes aql, pm4, drm): code object
//                   variable buffer I is a separate allocation holding its
//                   initial contents instead of the variable in the loaded
//                   code object (the alias broken: kernels that address
//                   the variable through the code object and the launch's
//                   pointer see different bytes)
//   copy-by-kind    the capture interposer: a hipMemcpyHostToDevice copy
//                   is recorded as host bytes even when its source is a
//                   recorded device buffer (the kind trusted over the
//                   address, docs/capture-interposer.md "Copies by address")
//   descriptor-unpatched:I
//                   every route (capture/model/capture_descriptor.c,
//                   rl_descriptor_patch): descriptor binding I keeps the
//                   capture's image address instead of the route's
//                   (docs/capture-interposer.md "Textures")
//   program-flip:I  shadow: the program's recorded digest I (PROGRAM_STATE
//                   entry I) is read with one bit flipped, so the shadow's
//                   program reference must fail naming step and region
//   effect-shift:I  capture file read (after its identity check): launch
//                   I's pointer
//                   slots each take the effect of the next slot (the last
//                   the first's), as an interposer that gives each pointer
//                   its neighbour's effect
//   extent-shrink:I ... each pointer slot of launch I declares an extent 4
//                   bytes shorter than recorded
//                   (both: the effects audit's controls, shadow/
//                   effects_audit.h; the hazard plan sees them too)
//   kernarg-tail-zero:I  recording funnel (capture/recording/funnel_launch.c): the
//                   recorded kernarg of launch I has zeros in the last 4
//                   bytes of its explicit arguments (the device ran the
//                   right ones): a capture-side recording mistake, the
//                   as-issued check's control (shadow/issued_check.h)
//   grid-ignore-y   simulator (sim_wg.c): every dispatch runs one row of
//                   work-groups, ignoring the grid's Y dimension (the
//                   dispatch audit's control; takes no index)
//   store-extra-byte  simulator (sim_wg.c): in a work-group whose writes
//                   are watched (the oracle executor's), a vector store
//                   also writes the byte after its last lane's element,
//                   with the value it holds: the control of the oracle's
//                   extent check (sim/oracle/oracle.h; no index)
//   parallel-completion-order  simulator (sim_parallel.c): a parallel
//                   dispatch reports its findings thread by thread, as
//                   they completed, not sorted by work-group (the
//                   sim_threads determinism tests' control; no index)
//   graph-rebuild   the shadow's hipgraph arm re-captures and
//                   re-instantiates its graph every window instead of
//                   updating its kernel nodes (the control of its route
//                   proof's one-instantiation check; takes no index)
//   copy-settle-off the capture interposer (interposer_copy.c) does not
//                   settle host buffers after a recorded copy or fill into
//                   one (takes no index): the device's bytes are then
//                   taken for host stores (tests/hip_corpus streams)
//   host-writes-off the capture interposer (interposer_host.c) records no
//                   host stores into host memory (takes no index): the
//                   negative control of tests/hip_conformance/
//                   host_uploads.sh
//   struct-pin-off  the recording funnel (capture/recording/funnel_launch.c)
//                   neither pins the buffers struct arguments point into
//                   nor records the words as pointer slots (takes no
//                   index): a negative control of tests/hip_corpus/
//                   struct_ptrs.sh
//   struct-slot-off the same funnel pins those buffers but records no
//                   pointer slot for the words (takes no index): the other
//                   negative control of tests/hip_corpus/struct_ptrs.sh
//   graph-coop-off  the capture interposer (interposer_graph.c) records a
//                   graph's cooperative kernel node as an ordinary launch
//                   (takes no index): the negative control of
//                   tests/hip_corpus/grid_sync.sh graph
//   no-census       the AQL and PM4 censuses accept every program, so a
//                   lowering fault reaches the device (with drop-*: proves
//                   the dynamic hazard checker catches it on its own)
// Faults applied after the census passed the program (the cache model's
// mutation proofs, docs/cache-model.md; the index counts what is changed):
//   nop-acquire:I   route pm4: the I-th ACQUIRE_MEM of the IB (in IB order,
//                   the entry acquire included) becomes a NOP of the same
//                   length
//   weaken-gcr:I    route pm4: the I-th ACQUIRE_MEM loses GLV_INV (vector
//                   L0 invalidate) in its GCR_CNTL
//   nop-copy:I      route pm4 with pm4_device_patch: the I-th COPY_DATA of
//                   the IB (a relay copy, pm4/pm4_lower.h) becomes a NOP of
//                   the same length, so a launch runs with the value the
//                   previous run left in its kernarg
//   narrow-acquire:I  route aql: packet I's acquire fence scope is NONE
//   narrow-release:I  route aql: packet I's SYSTEM release scope is AGENT
//                   (no L2 write-back)
// The AQL and PM4 censuses read the hazard plan, not these switches, so a
// lowering fault is seen by them exactly as a real bug.
//
// Cost in the product path: one getenv() on first use, then a load and a
// compare per call site (the sites are on prepare and patch paths, not per
// work-item).
//
// Thread-safety: the variable is read once (pthread_once); later changes to
// the environment are not seen.
#ifndef REDLINE_BASE_TEST_FAULT_H_
#define REDLINE_BASE_TEST_FAULT_H_

#include <stdbool.h>
#include <stdint.h>

// True when REDLINE_TEST_FAULT names fault |name| and either gives no index
// or gives |index|.
bool rl_test_fault(const char* name, uint32_t index);

// The REDLINE_TEST_FAULT value in force ("" when none or malformed).
const char* rl_test_fault_name(void);

#endif  // REDLINE_BASE_TEST_FAULT_H_
