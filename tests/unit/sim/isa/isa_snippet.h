// tests/unit/sim/isa/isa_snippet.h — runs a few lines of gfx11 assembly through the
// ISA executor's own decoder, predecoder and runners, on one wave32 wave,
// so an opcode's test can check its result against a value the test
// computes on the host.
//
// The lines are assembled by llvm-mc-19 (the encoding oracle), an
// `s_endpgm` is appended, and the bytes are predecoded by
// rl_isa_program_build() exactly as a dispatch would predecode them. The
// wave starts with EXEC all ones, every SGPR and VGPR zero and the float
// mode the test chose; the test sets registers, runs, and reads registers,
// LDS or the snippet's global memory back. Global memory is a private
// simulated memory (sim/mem/sim_memory.c) reached through
// rl_sim_wg_load()/rl_sim_wg_store(), as in a real dispatch.
//
// Not thread-safe; one snippet per test.
#ifndef REDLINE_TESTS_UNIT_ISA_SNIPPET_H_
#define REDLINE_TESTS_UNIT_ISA_SNIPPET_H_

#include <stdbool.h>
#include <stdint.h>

#include "sim/isa/isa_exec.h"
#include "sim/isa/isa_program.h"
#include "sim/sim.h"

#define RL_ISA_SNIPPET_LDS_BYTES 65536u

typedef struct rl_isa_snippet_s rl_isa_snippet_t;

// A snippet with |mode| (RL_ISA_MODE_* bits); fails the test on error.
rl_isa_snippet_t* rl_isa_snippet_create(uint32_t mode);
void rl_isa_snippet_destroy(rl_isa_snippet_t* snippet);

// The wave (registers to set before and read after a run) and its LDS.
rl_isa_wave_t* rl_isa_snippet_wave(rl_isa_snippet_t* snippet);
uint8_t* rl_isa_snippet_lds(rl_isa_snippet_t* snippet);

// Assembles |count| |lines| (+ s_endpgm) and predecodes them. Fails the
// test when llvm-mc rejects a line or when the executor does not model one
// of the instructions (it would be bound to the fault handler).
void rl_isa_snippet_load(rl_isa_snippet_t* snippet, const char* const* lines,
                         uint32_t count);

// The predecoded instruction |index| of the loaded snippet (its lines in
// order, then s_endpgm), to call a runner on it directly.
const rl_isa_inst_t* rl_isa_snippet_inst(rl_isa_snippet_t* snippet,
                                         uint32_t index);

// Runs the loaded program from its first instruction to s_endpgm; resets
// the PC and wave state but not the registers.
rl_status_t rl_isa_snippet_run(rl_isa_snippet_t* snippet);

// |size| bytes of global memory (zeroed); its device address, and its host
// view in *|out_host|.
uint64_t rl_isa_snippet_alloc(rl_isa_snippet_t* snippet, uint64_t size,
                              void** out_host);

// Runs the snippet's device with the cache model of gfx1100 in |mode|
// (sim/mem/sim_mem.h): the wave runs on WGP 0 of dispatch 0, and
// writes through a host view from rl_isa_snippet_alloc() reach memory (the
// L2) without touching the caches, so they leave lines the wave filled
// stale. Returns the cache-model stale-read findings reported so far, and in
// *|out_retracted| (may be NULL) the stale reads the executor retracted.
void rl_isa_snippet_cache(rl_isa_snippet_t* snippet, rl_sim_cache_mode_t mode);
uint32_t rl_isa_snippet_stale_reads(rl_isa_snippet_t* snippet,
                                    uint64_t* out_retracted);

// Loads |lines| and runs them; fails the test unless the run succeeds.
void rl_isa_snippet_exec(rl_isa_snippet_t* snippet, const char* const* lines,
                         uint32_t count);

#endif  // REDLINE_TESTS_UNIT_ISA_SNIPPET_H_
