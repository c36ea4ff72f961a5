// sim/isa/isa_check.c — the static check of a kernel's machine code
// before anything runs: the program is predecoded exactly as a dispatch
// predecodes it (isa_program.h), and every instruction bound to the fault
// handler is reported by its LLVM mnemonic and PC. Contract: isa_executor.h.
#include <stdio.h>
#include <string.h>

#include "sim/isa/isa_exec.h"
#include "sim/isa/isa_executor.h"
#include "sim/isa/isa_program.h"

// Code read from a host copy of the loaded image (base address 0).
typedef struct rl_isa_image_s {
  const uint8_t* bytes;
  uint64_t size;
} rl_isa_image_t;

static rl_status_t rl_isa_image_fetch(void* context, uint64_t address,
                                      void* out_data, uint32_t size) {
  const rl_isa_image_t* image = context;
  if (address > image->size || size > image->size - address) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "code beyond the image");
  }
  memcpy(out_data, image->bytes + address, size);
  return RL_OK;
}

static void rl_isa_unmodelled_fill(const rl_isa_inst_t* inst,
                                   rl_isa_unmodelled_t* out) {
  out->pc = inst->pc;
  out->mnemonic = rl_isa_inst_name(inst);
  out->encoding = rl_isa_encoding_name(inst->encoding);
  out->opcode = inst->opcode;
  out->reason = rl_isa_inst_unsupported_reason(inst);
  if (out->reason == NULL) out->reason = "no semantics";
}

rl_status_t rl_isa_program_refusal(const rl_isa_program_t* program,
                                   const char* kernel_name) {
  if (program->unmodelled == 0) return RL_OK;
  rl_isa_unmodelled_t first;
  rl_isa_unmodelled_fill(&program->insts[program->first_unmodelled], &first);
  return RL_STATUS(RL_STATUS_CONTRACT,
                   "isa executor: kernel %s: %s (%s opcode 0x%x) at PC +0x%x "
                   "is not modelled (%s); %u of the kernel's %u instructions "
                   "are not (`redline kernels CODEOBJECT --isa` lists them)",
                   kernel_name, first.mnemonic, first.encoding, first.opcode,
                   first.pc, first.reason, program->unmodelled,
                   program->instructions);
}

static rl_status_t rl_isa_scan_build(const char* processor, const void* image,
                                     uint64_t image_size, uint64_t entry,
                                     rl_isa_program_t** out_program) {
  uint32_t features = 0;
  if (!rl_isa_processor_features(processor, &features)) {
    return RL_STATUS(RL_STATUS_UNSUPPORTED,
                     "isa executor: processor %s is not modelled (gfx1100-"
                     "gfx1103, gfx1150-gfx1152, gfx1200, gfx1201)",
                     processor ? processor : "(none)");
  }
  rl_isa_image_t code = {image, image_size};
  return rl_isa_program_build(entry, features, rl_isa_image_fetch, &code,
                              out_program);
}

rl_status_t rl_isa_scan_kernel(const char* processor, const void* image,
                               uint64_t image_size, uint64_t entry,
                               rl_isa_unmodelled_fn visit, void* context,
                               uint32_t* out_instructions,
                               uint32_t* out_unmodelled) {
  *out_instructions = 0;
  *out_unmodelled = 0;
  rl_isa_program_t* program = NULL;
  RL_RETURN_IF_ERROR(
      rl_isa_scan_build(processor, image, image_size, entry, &program));
  for (uint32_t i = 0; visit && i < program->count; ++i) {
    if (program->insts[i].exec != rl_isa_exec_unsupported) continue;
    rl_isa_unmodelled_t unmodelled;
    rl_isa_unmodelled_fill(&program->insts[i], &unmodelled);
    visit(context, &unmodelled);
  }
  *out_instructions = program->instructions;
  *out_unmodelled = program->unmodelled;
  rl_isa_program_release(program);
  return RL_OK;
}

rl_status_t rl_isa_check_kernel(const char* processor, const void* image,
                                uint64_t image_size,
                                const rl_code_object_kernel_t* kernel) {
  rl_isa_program_t* program = NULL;
  RL_RETURN_IF_ERROR(rl_isa_scan_build(processor, image, image_size,
                                       kernel->entry_address, &program));
  rl_status_t status = rl_isa_program_refusal(program, kernel->name);
  rl_isa_program_release(program);
  return status;
}
