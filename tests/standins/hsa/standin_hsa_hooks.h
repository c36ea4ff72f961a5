// tests/standins/hsa/standin_hsa_hooks.h — test hooks exported by the CI
// stand-in for ROCr (libhsa-runtime64.so.1 built over the simulated GPU;
// standin_hsa.h describes it). Tests dlopen the stand-in and dlsym these
// names; the rl_standin_hsa_*_fn typedefs are for that.
//
// Misuse the stand-in detects (each recorded as one error message):
//   - a doorbell value that is not the last reserved packet id, or that
//     goes backwards;
//   - a doorbell covering a packet whose header is still INVALID;
//   - a published packet that still holds the poison pattern the stand-in
//     writes into bytes 4..63 of every free slot (the body was not written,
//     or was written after the header was published and the doorbell rung);
//   - a dispatch whose kernarg segment is in kernarg-pool memory the GPU
//     agent was not given access to (hsa_amd_agents_allow_access);
//   - a kernel object read before hsa_executable_freeze;
//   - store, load, wait or destroy on a signal that is not live
//     (destroyed or never created);
//   - memory freed while a queue that has not faulted still has packets in
//     flight (counted separately too: frees_while_busy).
// Environment (read at hsa_init / hsa_queue_create):
//   REDLINE_STANDIN_ISA=amdgcn-amd-amdhsa--gfx1100   the GPU agent's ISA
//   REDLINE_STANDIN_INIT_FAIL=1          hsa_init fails OUT_OF_RESOURCES
//   REDLINE_STANDIN_QUEUE_CREATE_FAIL=1  hsa_queue_create fails likewise
//   REDLINE_STANDIN_HANG_PACKET=N        every queue hangs before packet N
//                                        (its signals never complete)
//   REDLINE_STANDIN_REPORT=PATH          at exit, write the counters and
//                                        errors to PATH ("errors N" first)
#ifndef REDLINE_TESTS_STANDINS_HSA_STANDIN_HSA_HOOKS_H_
#define REDLINE_TESTS_STANDINS_HSA_STANDIN_HSA_HOOKS_H_

#include <stdint.h>

// Number of misuse errors recorded since load or the last clear.
uint32_t rl_standin_hsa_error_count(void);
// The |index|th recorded message (the first 64 are kept), or "".
const char* rl_standin_hsa_error(uint32_t index);
void rl_standin_hsa_clear_errors(void);
// Frees of memory while a queue had packets in flight.
uint32_t rl_standin_hsa_frees_while_busy(void);
// The sim fault message behind the last queue error callback, or "".
const char* rl_standin_hsa_last_fault(void);
// Allocations still live at the last hsa_shut_down (0 before any).
uint32_t rl_standin_hsa_live_at_shutdown(void);

typedef uint32_t (*rl_standin_hsa_error_count_fn)(void);
typedef const char* (*rl_standin_hsa_error_fn)(uint32_t);
typedef void (*rl_standin_hsa_clear_errors_fn)(void);
typedef uint32_t (*rl_standin_hsa_frees_while_busy_fn)(void);
typedef const char* (*rl_standin_hsa_last_fault_fn)(void);
typedef uint32_t (*rl_standin_hsa_live_at_shutdown_fn)(void);

#endif  // REDLINE_TESTS_STANDINS_HSA_STANDIN_HSA_HOOKS_H_
