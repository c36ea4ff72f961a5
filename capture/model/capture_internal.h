// capture/model/capture_internal.h — checks shared by the capture builders
// (capture.c), whole-model validation (capture_validate.c) and the file
// reader. Private to rl_capture.
#ifndef REDLINE_CAPTURE_CAPTURE_INTERNAL_H_
#define REDLINE_CAPTURE_CAPTURE_INTERNAL_H_

#include "base/byte_order.h"
#include "redline/capture.h"

// A name is 1..RL_CAPTURE_NAME_MAX-1 printable ASCII bytes without spaces.
// Test-only (base/test_fault.h, effect-shift and extent-shrink):
// makes the declared effects of |capture|'s launches wrong as a mistaken
// interposer would have recorded them (the effects audit's negative
// control, shadow/effects_audit.h). A capture file read applies it after
// its identity check, so the file still loads.
void rl_capture_fault_effects(rl_capture_t* capture);

rl_status_t rl_capture_check_name(const char* what, const char* name);
// The same rule for a kernel name or variable symbol, of
// 1..RL_CAPTURE_SYMBOL_MAX-1 bytes.
rl_status_t rl_capture_check_symbol(const char* what, const char* name);

rl_status_t rl_capture_check_buffer(const rl_capture_buffer_t* buffer);
// A variable buffer (rl_capture_buffer_is_variable) against |capture|'s
// code objects: the code object exists, has the symbol, the bytes lie in
// the variable, no relocation patches them, the address is not kept.
// RL_OK for other buffers.
rl_status_t rl_capture_check_variable(const rl_capture_t* capture,
                                      const rl_capture_buffer_t* buffer);
rl_status_t rl_capture_check_param(const rl_capture_param_t* param);
rl_status_t rl_capture_check_launch(const rl_capture_t* capture,
                                    const rl_capture_launch_t* launch);

// Frees what |launch| owns (kernarg, slots, bindings): a launch of the
// model, or one being built.
void rl_capture_launch_deinit(rl_capture_launch_t* launch);

// Removes the last launch of |capture| (at least one) and frees what it
// owns: the funnel, when the device refuses a launch it has just added.
void rl_capture_pop_launch(rl_capture_t* capture);
rl_status_t rl_capture_check_region(const rl_capture_t* capture,
                                    const rl_capture_region_t* region);
// Descriptor binding |descriptor| against |capture| and the binding
// before it (|previous|, NULL for the first): rl_capture_add_descriptor.
rl_status_t rl_capture_check_descriptor(
    const rl_capture_t* capture, const rl_capture_descriptor_t* descriptor,
    const rl_capture_descriptor_t* previous);
rl_status_t rl_capture_check_window(const rl_capture_t* capture,
                                    const rl_capture_window_t* window);

#endif  // REDLINE_CAPTURE_CAPTURE_INTERNAL_H_
