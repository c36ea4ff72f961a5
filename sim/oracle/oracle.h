// sim/oracle/oracle.h — the oracle executor: a second, deliberately
// simple interpreter of gfx11 (RDNA3) and gfx12 (RDNA4) wave32 machine code
// that checks the `isa` executor (sim/isa/) on the work-groups it
// samples.
//
// Independence. The oracle shares nothing with sim/isa/ but the
// mnemonic tables checked against llvm-mc (isa_names.h): it extracts the
// fields of every format itself, runs one lane at a time, takes each ALU
// opcode's semantics from the host model the conformance suite holds the
// executor to (oracle_model.h, oracle_mods.h; written from the RDNA3 ISA
// guide's pseudo-code and IEEE 754 as the host computes it) and keeps its
// own registers, LDS and memory view. A mistake in the executor's decoding,
// lane loops, float helpers or memory helpers therefore shows as a
// difference in bytes.
//
// How it checks. rl_oracle_executor() wraps the executor under test
// (|inner|). For every dispatch it picks work-groups (sample mode: two per
// dispatch, one chosen by the seed and the grid's last one; full mode:
// all). Before |inner| runs a picked work-group, the oracle runs it on the
// device memory as it is at that moment (rl_sim_wg_peek: no hazard record,
// no cache model), writing into a private overlay; its LDS is its own,
// zeroed, and scalar loads and kernargs read through the same overlay.
// Waves of the work-group run round-robin up to each s_barrier. After
// |inner| finished the work-group, every byte the oracle wrote must equal
// the simulator's memory at that address, and the bytes the simulator wrote
// for it (rl_sim_wg_watch_writes) must be exactly the bytes the oracle
// wrote: one side's write the other did not make is a mismatch naming its
// address. A picked work-group the simulator never ran (a grid it shrank)
// is a mismatch too. Under an interleaving schedule (wg_open/wg_step, when
// |inner| has them) a picked work-group runs whole at its first step: the
// oracle on memory as it is then, |inner| to its end in one step; a
// cooperative dispatch is never picked (skipped: its grid barrier needs
// every work-group).
//
// Skips, never silent passes. A work-group the oracle cannot check honestly
// is skipped with its reason: an instruction it does not model (named), a
// descriptor feature it does not set up (scratch, queue pointer, kernarg
// preload, a float mode other than flush/keep), atomics whose result
// depends on the order of waves (a returning atomic, a float atomic), a
// processor other than gfx11/gfx12, a work-group longer than
// RL_ORACLE_MAX_STEPS wave-instructions. Skips are counted per reason
// in the report; they never fail the user's run.
//
// Limits of the model: memory is coherent (the oracle does not model the
// cache model's stale lines, so a program relying on a missing acquire is
// not the oracle's finding: the hazard checker reports it), and a store race
// between two waves of one work-group is resolved in the oracle's
// round-robin order.
//
// Thread-safety: the executor it returns is called from the device's
// command-processor threads; rl_oracle_report() may be called from any
// thread (the counters are under a lock).
#ifndef REDLINE_SIM_ORACLE_ORACLE_H_
#define REDLINE_SIM_ORACLE_ORACLE_H_

#include <stdbool.h>
#include <stdint.h>

#include "sim/sim_executor.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum rl_oracle_mode_e {
  RL_ORACLE_OFF = 0,
  RL_ORACLE_SAMPLE = 1,  // two work-groups per dispatch
  RL_ORACLE_FULL = 2,    // every work-group
} rl_oracle_mode_t;

// Parses "off", "sample" or "full"; false otherwise.
bool rl_oracle_mode_parse(const char* text, rl_oracle_mode_t* out_mode);
const char* rl_oracle_mode_name(rl_oracle_mode_t mode);

// Wave-instructions one work-group may retire in the oracle before it is
// skipped as too long: a spin on a flag another work-group sets never ends
// in the oracle, which runs one work-group alone, and at 1-3 microseconds
// per wave-instruction 4 Mi of them are several seconds of the shadow.
#define RL_ORACLE_MAX_STEPS (4ull << 20)

#define RL_ORACLE_MAX_REASONS 8u

typedef struct rl_oracle_reason_s {
  char text[160];  // "instruction v_pk_fma_f16 not modelled"
  uint64_t count;  // work-groups skipped for it
} rl_oracle_reason_t;

typedef struct rl_oracle_report_s {
  rl_oracle_mode_t mode;
  uint64_t dispatches;          // dispatches the wrapped executor began
  uint64_t dispatches_checked;  // with at least one work-group checked
  uint64_t dispatches_skipped;  // with every picked work-group skipped
  uint64_t workgroups;          // work-groups of those dispatches
  uint64_t workgroups_checked;  // run by the oracle and compared
  uint64_t workgroups_skipped;
  uint64_t bytes_compared;      // bytes the oracle wrote, compared
  uint64_t wave_instructions;   // retired by the oracle
  uint64_t oracle_ns;           // time spent in the oracle
  uint32_t reason_count;        // distinct skip reasons (first 8 kept)
  rl_oracle_reason_t reasons[RL_ORACLE_MAX_REASONS];
  // The first mismatch: dispatch (the device's running dispatch index),
  // kernel, work-group, and a message naming the address, the oracle's
  // bytes (expected) and the simulator's (got).
  bool mismatch;
  uint64_t mismatch_dispatch;
  char mismatch_kernel[96];
  uint32_t mismatch_group[3];
  char mismatch_text[384];
} rl_oracle_report_t;

typedef struct rl_oracle_s rl_oracle_t;

// Creates an oracle that wraps |inner| (the `isa` executor; borrowed, must
// outlive it). |seed| picks the sampled work-groups.
rl_status_t rl_oracle_create(const rl_sim_executor_t* inner,
                             rl_oracle_mode_t mode, uint64_t seed,
                             rl_oracle_t** out_oracle);
void rl_oracle_destroy(rl_oracle_t* oracle);

// The wrapping executor (name "isa": it runs |inner| for every work-group
// and adds the oracle's runs); valid while |oracle| lives.
const rl_sim_executor_t* rl_oracle_executor(rl_oracle_t* oracle);

// A copy of the counters and the first mismatch so far.
void rl_oracle_report(rl_oracle_t* oracle, rl_oracle_report_t* out_report);

// One line for reports: "oracle executor (sample): 12 of 40 work-groups in
// 6 of 7 dispatches checked, 1 dispatch skipped (1 x instruction ...)".
void rl_oracle_report_format(const rl_oracle_report_t* report, char* buffer,
                             uint32_t size);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_SIM_ORACLE_ORACLE_H_
