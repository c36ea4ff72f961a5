// tests/unit/sim/isa/isa_test_util.h — helpers of the ISA executor tests: the
// compiler as oracle (llvm-mc-19 assembles samples, llvm-objdump-19
// disassembles code objects; both run at test time through popen).
#ifndef REDLINE_TESTS_UNIT_ISA_TEST_UTIL_H_
#define REDLINE_TESTS_UNIT_ISA_TEST_UTIL_H_

#include <stdint.h>

// The encoding of one assembled instruction: up to 3 dwords.
typedef struct rl_isa_encoded_s {
  uint32_t words[4];
  uint32_t count;  // dwords
} rl_isa_encoded_t;

// Assembles |line| with `llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu=|cpu|
// -show-encoding`; fails the test when llvm-mc rejects it.
void rl_isa_test_assemble(const char* cpu, const char* line,
                          rl_isa_encoded_t* out);

// Assembles |count| lines in one llvm-mc run (out[i] for lines[i]); when
// llvm-mc rejects any of them the offending line is named.
void rl_isa_test_assemble_batch(const char* cpu, const char* const* lines,
                                uint32_t count, rl_isa_encoded_t* out);

// Disassembles each of |items| (one instruction each) in one
// `llvm-mc-19 --disassemble -show-encoding -mcpu=|cpu|` run; out[i] is the
// instruction's text without the encoding comment, or "" when llvm-mc
// rejects it.
void rl_isa_test_disassemble_words(const char* cpu,
                                   const rl_isa_encoded_t* items,
                                   uint32_t count, char (*out)[192]);

// One instruction line of llvm-objdump output.
typedef struct rl_isa_listed_s {
  uint64_t address;
  char mnemonic[64];    // first token
  char mnemonic_y[64];  // VOPD: the token after "::", else ""
  uint32_t words[4];
  uint32_t count;
} rl_isa_listed_t;

// Disassembles |path| with `llvm-objdump-19 -d --mcpu=|cpu|`; returns a
// malloc'd array of every instruction of every section, *|out_count| long.
rl_isa_listed_t* rl_isa_test_disassemble(const char* cpu, const char* path,
                                         uint32_t* out_count);

// One line of an llvm-mc name table (tests/data/isa_names_gfx1*.txt):
// "FAMILY OPCODE TEXT", the encoding index of FAMILY, and the mnemonic of
// TEXT (the Y half of a VOPD pair; without an _e32/_e64 suffix).
typedef struct rl_isa_name_line_s {
  uint32_t encoding;
  uint32_t opcode;
  char mnemonic[64];
  char text[160];
} rl_isa_name_line_t;

// Reads the table at |path| into |out| (at most |capacity| lines, '#'
// comments and blank lines skipped); fails the test on a malformed line.
uint32_t rl_isa_test_load_names(const char* path, rl_isa_name_line_t* out,
                                uint32_t capacity);

#endif  // REDLINE_TESTS_UNIT_ISA_TEST_UTIL_H_
