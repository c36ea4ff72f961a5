// Buffers that alias a code object's variable (redline/capture.h,
// rl_capture_buffer_t.symbol): their checks against the capture's code
// objects and their address in a route's load of the code object.
#include <stdint.h>

#include "capture/model/capture_internal.h"
#include "redline/capture.h"

rl_status_t rl_capture_check_variable(const rl_capture_t* capture,
                                      const rl_capture_buffer_t* buffer) {
  if (!rl_capture_buffer_is_variable(buffer)) return RL_OK;
  const char* name = buffer->name;
  if (buffer->code_object >= capture->code_object_count) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "buffer %s aliases variable %s of code object %u, but "
                     "the capture has %u code objects",
                     name, buffer->symbol, buffer->code_object,
                     capture->code_object_count);
  }
  const rl_code_object_t* co = capture->code_objects[buffer->code_object].parsed;
  const rl_code_object_variable_t* variable =
      rl_code_object_find_variable(co, buffer->symbol);
  if (!variable) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "buffer %s aliases variable %s, but code object %u has "
                     "no variable of that name (unknown symbol)",
                     name, buffer->symbol, buffer->code_object);
  }
  if (buffer->symbol_offset > variable->size ||
      buffer->size > variable->size - buffer->symbol_offset) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "buffer %s is bytes [%llu, +%llu) of variable %s, which "
                     "has %llu bytes in code object %u (size mismatch)",
                     name, (unsigned long long)buffer->symbol_offset,
                     (unsigned long long)buffer->size, buffer->symbol,
                     (unsigned long long)variable->size, buffer->code_object);
  }
  if (buffer->keep_address) {
    return RL_STATUS(RL_STATUS_INVALID_INPUT,
                     "buffer %s aliases variable %s and cannot keep its "
                     "address: it lives where each route loads the code "
                     "object",
                     name, buffer->symbol);
  }
  uint64_t start = variable->address + buffer->symbol_offset;
  for (uint32_t r = 0; r < co->relocation_count; ++r) {
    uint64_t at = co->relocations[r].offset;
    if (at < start + buffer->size && start < at + 8) {
      return RL_STATUS(RL_STATUS_UNSUPPORTED,
                       "buffer %s aliases variable %s, whose bytes at image "
                       "address 0x%llx are patched by a relocation: its "
                       "captured contents hold an address of the capture's "
                       "load",
                       name, buffer->symbol, (unsigned long long)at);
    }
  }
  return RL_OK;
}

rl_status_t rl_capture_variable_address(const rl_capture_t* capture,
                                        uint32_t buffer, uint64_t load_base,
                                        uint64_t* out_address) {
  if (!capture || !out_address) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "variable address: a capture and an output are required");
  }
  *out_address = 0;
  if (buffer >= capture->buffer_count ||
      !rl_capture_buffer_is_variable(&capture->buffers[buffer])) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "buffer %u is not a code object variable", buffer);
  }
  const rl_capture_buffer_t* b = &capture->buffers[buffer];
  RL_RETURN_IF_ERROR(rl_capture_check_variable(capture, b));
  const rl_code_object_variable_t* variable = rl_code_object_find_variable(
      capture->code_objects[b->code_object].parsed, b->symbol);
  *out_address = load_base + variable->address + b->symbol_offset;
  return RL_OK;
}
