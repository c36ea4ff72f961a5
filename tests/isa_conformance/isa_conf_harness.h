// tests/isa_conformance/isa_conf_harness.h — runs a hand-encoded gfx11
// program on the `isa` executor of a simulated device, the way a real
// dispatch would: the vecchain code object is loaded, and a wrapper around
// the executor points the dispatch of vc_fill at the test's code (in a
// device allocation) and sets the descriptor fields the test controls
// (denormal mode, IEEE and DX10_CLAMP bits, processor, 256 VGPRs, the
// work-group id X in s15; gfx1201 when rl_conf_gfx12 is set, the work-group
// id then in TTMP9). Everything else — program build, wave set-up,
// memory through the simulated MMU — is the executor's own path.
//
// Program contract: s[0:1] holds the kernarg pointer, whose segment is
// {in @0, out @8, aux @16} (device addresses of the three buffers below);
// s15 the work-group id; v0 the work-item id in the 64-wide work-group.
#ifndef REDLINE_TESTS_ISA_CONFORMANCE_ISA_CONF_HARNESS_H_
#define REDLINE_TESTS_ISA_CONFORMANCE_ISA_CONF_HARNESS_H_

#include <stdbool.h>
#include <stdint.h>

#include "sim/sim_executor.h"
#include "tests/isa_conformance/isa_conf_encode.h"

// Bytes of each buffer; lanes of one dispatch at most.
#define RL_CONF_BUFFER_BYTES (4u << 20)
#define RL_CONF_GROUP 64u

typedef struct rl_conf_config_s {
  bool ftz32;          // FLOAT_DENORM_MODE_32 = 0 (flush) instead of 3
  bool ieee;           // IEEE_MODE
  bool dx10_clamp;     // DX10_CLAMP
  const char* processor;  // NULL: gfx1100
  uint32_t lanes;      // work-items (a multiple of 64)
  uint32_t lds_bytes;  // group segment
  uint32_t private_bytes;  // private segment per work-item (0: none)
} rl_conf_config_t;

typedef struct rl_conf_device_s rl_conf_device_t;

rl_conf_device_t* rl_conf_device_create(void);
void rl_conf_device_destroy(rl_conf_device_t* device);

// Host views of the three buffers (RL_CONF_BUFFER_BYTES each) and their
// device addresses. |out| is filled with 0xcd before every run.
uint8_t* rl_conf_in(rl_conf_device_t* device);
uint8_t* rl_conf_out(rl_conf_device_t* device);
uint8_t* rl_conf_aux(rl_conf_device_t* device);
uint64_t rl_conf_in_address(rl_conf_device_t* device);
uint64_t rl_conf_out_address(rl_conf_device_t* device);
uint64_t rl_conf_aux_address(rl_conf_device_t* device);
// Device address of the program's first instruction.
uint64_t rl_conf_code_address(rl_conf_device_t* device);

// Runs |program| (ended by the caller's s_endpgm). Returns true when the
// dispatch completed; otherwise copies the queue fault into |fault| (may be
// NULL) and returns false.
bool rl_conf_run(rl_conf_device_t* device, const rl_conf_program_t* program,
                 const rl_conf_config_t* config, char* fault,
                 uint32_t fault_capacity);

// Hands every dispatch to |inner| instead of the isa executor (NULL: the
// isa executor again); the oracle tests put the oracle executor
// (sim/oracle/oracle.h) around it here. Set before a run.
void rl_conf_set_inner(const rl_sim_executor_t* inner);

// Dispatches run so far (for the summary line).
uint32_t rl_conf_dispatches(const rl_conf_device_t* device);

#endif  // REDLINE_TESTS_ISA_CONFORMANCE_ISA_CONF_HARNESS_H_
