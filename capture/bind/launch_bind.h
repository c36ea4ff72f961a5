// capture/bind/launch_bind.h — evaluating a recorded launch's bindings at new
// parameter values and buffer addresses: the one place every replay arm
// turns a capture launch into the bytes and geometry it issues.
//
// A launch's replay values are (redline/capture.h):
//   pointer slot s   buffer_addresses[s.buffer] + s.offset, written as 8
//                    little-endian bytes at s.kernarg_offset, where
//                    s.offset is the value of the slot's pointer-offset
//                    binding when it has one (fit: inside its buffer);
//   kernarg binding  rl_expr_evaluate(expr) at |values|, written as its low
//                    |size| (4 or 8) little-endian bytes at its offset; a
//                    value that does not fit 4 bytes is refused rather than
//                    truncated;
//   grid binding     the work-group count of one axis; it must be at least 1
//                    and grid × block must fit the 32-bit AQL grid_size (in
//                    work-items) and the PM4 DISPATCH_DIRECT dimensions.
// Everything else is the recorded kernarg bytes and geometry.
//
// Errors are RL_STATUS_CONTRACT naming the launch, its kernel and the
// binding or slot ("launch 4 (vc_partial_sum) binding 2 (grid x =
// ceil((pos+1)/64)): ceil_div of negative value -9"): a parameter value
// that the capture cannot be replayed at. Admission ranges of parameters
// are not checked here; that is the replay contract's job.
//
// The rule for what a binding's value may be (rl_bind_fit_range) and the
// range a binding takes over the admitted parameter range
// (rl_bind_expr_range, rl_bind_check_admitted: the replay contract's check)
// live here too, so the per-run evaluator, the compiled patch table
// (capture/bind/bind_table.h), the contract and the work budget
// (capture_limits.c) apply one rule.
//
// Thread-safety: pure functions of their arguments.
#ifndef REDLINE_CAPTURE_LAUNCH_BIND_H_
#define REDLINE_CAPTURE_LAUNCH_BIND_H_

#include <stdbool.h>
#include <stdint.h>

#include "redline/capture.h"
#include "base/byte_order.h"
#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

// The values |binding| of |launch| may take — the one "value fits" rule:
//   kernarg, 4 bytes  [0, 2^32-1];  kernarg, 8 bytes  [0, 2^63-1];
//   grid axis a       [1, floor((2^32-1) / block[a])] work-groups, so the
//                     grid in work-items fits the 32-bit AQL grid_size and
//                     the PM4 DISPATCH_DIRECT dimensions (empty, lo > hi,
//                     when the block is 0);
//   pointer offset    [0, size of the slot's buffer] bytes.
static inline void rl_bind_fit_range(const rl_capture_t* capture,
                                     const rl_capture_launch_t* launch,
                                     const rl_scalar_binding_t* binding,
                                     int64_t* out_lo, int64_t* out_hi) {
  if (binding->target == RL_BINDING_POINTER_OFFSET) {
    uint32_t buffer = binding->offset < launch->slot_count
                          ? launch->slots[binding->offset].buffer
                          : UINT32_MAX;
    *out_lo = 0;
    *out_hi = buffer < capture->buffer_count
                  ? (int64_t)capture->buffers[buffer].size
                  : -1;
    return;
  }
  if (binding->target == RL_BINDING_GRID) {
    uint32_t block = launch->block[binding->offset < 3 ? binding->offset : 0];
    *out_lo = 1;
    *out_hi = block ? (int64_t)(UINT32_MAX / block) : 0;
    return;
  }
  *out_lo = 0;
  *out_hi = binding->size == 4 ? (int64_t)UINT32_MAX : INT64_MAX;
}

// The smallest and largest value |expr| takes over the admitted range
// [min, max) of its parameter, the other parameters at their capture
// values. ADD, DIV and CEIL_DIV are monotone, so the ends bound every
// value; MOD also reaches 0 and operand - 1, and is given [0, operand-1].
// An end the evaluator refuses (negative or overflowing) is its error
// (RL_STATUS_INVALID_ARGUMENT) annotated with "name=value".
rl_status_t rl_bind_expr_range(const rl_capture_t* capture,
                               const rl_expr_t* expr, int64_t* out_lo,
                               int64_t* out_hi);

// The replay contract's parameter check for binding |binding_index| of
// launch |launch_index|: every admitted value of its parameter gives a
// value that fits (rl_bind_fit_range), and a pointer-offset binding's
// offsets stay inside its slot's extent (what the hazard plan reads).
// RL_STATUS_CONTRACT naming the parameter end, the binding and the value
// otherwise.
rl_status_t rl_bind_check_admitted(const rl_capture_t* capture,
                                   uint32_t launch_index,
                                   uint32_t binding_index);

// Evaluates binding |binding_index| of launch |launch_index| at |values|
// (|param_count| of them, one per capture parameter) and checks that it
// fits its target. *|out_value| is the kernarg value, or the work-group
// count for a grid binding (0 on failure).
rl_status_t rl_launch_binding_evaluate(const rl_capture_t* capture,
                                       uint32_t launch_index,
                                       uint32_t binding_index,
                                       const int64_t* values,
                                       uint32_t param_count,
                                       uint64_t* out_value);

// The replay value of pointer slot |slot_index| of launch |launch_index|:
// buffer_addresses[slot.buffer] + slot.offset, refused when it wraps
// (0 on failure). slot.offset is the recorded offset: for a slot whose
// offset is bound (RL_BINDING_POINTER_OFFSET) use rl_launch_pointer_at.
rl_status_t rl_launch_pointer_value(const rl_capture_t* capture,
                                    uint32_t launch_index, uint32_t slot_index,
                                    const uint64_t* buffer_addresses,
                                    uint64_t* out_value);

// The replay value of pointer slot |slot_index| at parameter values
// |values|: buffer_addresses[slot.buffer] + the slot's offset, which is its
// pointer-offset binding evaluated at |values| when it has one
// (rl_launch_binding_evaluate, fit checked), else the recorded offset.
rl_status_t rl_launch_pointer_at(const rl_capture_t* capture,
                                 uint32_t launch_index, uint32_t slot_index,
                                 const int64_t* values, uint32_t param_count,
                                 const uint64_t* buffer_addresses,
                                 uint64_t* out_value);

// True when axis |axis| (0..2) of |launch| has a grid binding (the
// censuses of aql/ and pm4/ expect a patch site there).
bool rl_launch_grid_bound(const rl_capture_launch_t* launch, uint32_t axis);

// The value binding |binding_index| of launch |launch_index| gives a patch
// site of a route's patch table (aql/aql_patch.h, pm4/pm4_patch.c; one
// evaluator, so every route rebinds identically) at |values| (the capture's
// param_count of them): rl_launch_binding_evaluate's value (the kernarg
// value, or the work-group count of a grid binding), or with |grid_items|
// the grid binding in work-items: its work-group count times the launch's
// block on the binding's axis (fits 32 bits: checked by
// rl_launch_binding_evaluate). 0 and the evaluator's error on failure.
rl_status_t rl_launch_site_value(const rl_capture_t* capture,
                                 uint32_t launch_index, uint32_t binding_index,
                                 const int64_t* values, bool grid_items,
                                 uint64_t* out_value);

// Full evaluation of one launch: |out_kernarg| (launch kernarg_size bytes)
// receives the recorded kernarg with every pointer slot rebased and every
// kernarg binding evaluated; |out_grid| receives the work-group counts with
// every grid binding evaluated. |values| holds capture->param_count values;
// |buffer_addresses| one address per capture buffer. All-or-nothing: on
// failure both outputs are zero-filled.
rl_status_t rl_launch_bind(const rl_capture_t* capture, uint32_t launch_index,
                           const int64_t* values,
                           const uint64_t* buffer_addresses,
                           uint8_t* out_kernarg, uint32_t out_grid[3]);

// Work-items of one axis: |groups| × |block|, or false when the product is
// 0 or does not fit 32 bits.
static inline bool rl_launch_work_items(uint64_t groups, uint32_t block,
                                        uint32_t* out_items) {
  uint64_t items = groups * (uint64_t)block;
  if (groups == 0 || block == 0 || groups > UINT32_MAX ||
      items > UINT32_MAX) {
    *out_items = 0;
    return false;
  }
  *out_items = (uint32_t)items;
  return true;
}

// Little-endian store of the low |size| (4 or 8) bytes of |value| and load
// of |size| bytes: the names the binding layer's callers use, over the one
// byte-order helper (base/byte_order.h). New code calls
// rl_store_le / rl_load_le directly.
static inline void rl_launch_store_le(uint8_t* bytes, uint32_t size,
                                      uint64_t value) {
  rl_store_le(bytes, size, value);
}
static inline uint64_t rl_launch_load_le(const uint8_t* bytes, uint32_t size) {
  return rl_load_le(bytes, size);
}

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_CAPTURE_LAUNCH_BIND_H_
