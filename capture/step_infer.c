// Binding inference over step captures (capture/step_infer.h).
#include "capture/step_infer.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/launch_bind.h"

#define RL_INFER_POSITION 0xFFFFFFFEu  // plan parameter: pos
// Plan parameter ids: RL_INFER_POSITION or a free parameter's index.

typedef struct rl_infer_binding_s {
  uint32_t launch;
  rl_binding_target_t target;
  uint32_t offset, size;
  uint32_t param;  // RL_INFER_POSITION or free index
  int64_t scale, add;
  rl_expr_op_t op;
  int64_t operand;
} rl_infer_binding_t;

typedef struct rl_infer_plan_s {
  uint32_t steps;          // steps the plan was inferred from
  const int64_t* positions;
  int64_t position_limit;  // options->position_limit
  uint32_t binding_count, binding_capacity;
  rl_infer_binding_t* bindings;
  uint32_t free_count, free_capacity;
  int64_t* free_values;    // free_count × steps
} rl_infer_plan_t;

static void rl_infer_plan_free(rl_infer_plan_t* plan) {
  free(plan->bindings);
  free(plan->free_values);
  memset(plan, 0, sizeof(*plan));
}

static rl_status_t rl_infer_plan_add(rl_infer_plan_t* plan,
                                     const rl_infer_binding_t* binding) {
  if (plan->binding_count == plan->binding_capacity) {
    uint32_t capacity = plan->binding_capacity ? 2 * plan->binding_capacity : 16;
    rl_infer_binding_t* grown =
        realloc(plan->bindings, capacity * sizeof(*grown));
    if (!grown) return rl_status_out_of_memory();
    plan->bindings = grown;
    plan->binding_capacity = capacity;
  }
  plan->bindings[plan->binding_count++] = *binding;
  return RL_OK;
}

static rl_status_t rl_infer_plan_add_free(rl_infer_plan_t* plan,
                                          const int64_t* values,
                                          uint32_t* out_index) {
  if (plan->free_count == plan->free_capacity) {
    uint32_t capacity = plan->free_capacity ? 2 * plan->free_capacity : 4;
    int64_t* grown =
        realloc(plan->free_values, (size_t)capacity * plan->steps * 8u);
    if (!grown) return rl_status_out_of_memory();
    plan->free_values = grown;
    plan->free_capacity = capacity;
  }
  memcpy(plan->free_values + (size_t)plan->free_count * plan->steps, values,
         plan->steps * sizeof(int64_t));
  *out_index = plan->free_count++;
  return RL_OK;
}

//===----------------------------------------------------------------------===//
// Structure
//===----------------------------------------------------------------------===//

// RL_STATUS_CONTRACT naming the first structure difference of step |k|.
static rl_status_t rl_infer_compare(const rl_capture_t* a,
                                    const rl_capture_t* b, uint32_t k) {
#define RL_INFER_DIFF(...)                                                    \
  RL_STATUS(RL_STATUS_CONTRACT, "steps of unequal structure: step %u: %s", k, \
            (snprintf(text, sizeof(text), __VA_ARGS__), text))
  char text[512];
  if (a->code_object_count != b->code_object_count) {
    return RL_INFER_DIFF("%u code objects, step 0 has %u",
                         b->code_object_count, a->code_object_count);
  }
  for (uint32_t i = 0; i < a->code_object_count; ++i) {
    if (!rl_digest128_equal(a->code_objects[i].digest,
                            b->code_objects[i].digest)) {
      return RL_INFER_DIFF("code object %u differs from step 0's", i);
    }
  }
  if (a->kernel_count != b->kernel_count) {
    return RL_INFER_DIFF("%u kernels, step 0 has %u", b->kernel_count,
                         a->kernel_count);
  }
  for (uint32_t i = 0; i < a->kernel_count; ++i) {
    if (a->kernels[i].code_object != b->kernels[i].code_object ||
        strcmp(a->kernels[i].name, b->kernels[i].name) != 0) {
      return RL_INFER_DIFF("kernel %u is %s, step 0 has %s", i,
                           b->kernels[i].name, a->kernels[i].name);
    }
  }
  if (a->buffer_count != b->buffer_count) {
    return RL_INFER_DIFF("%u buffers, step 0 has %u", b->buffer_count,
                         a->buffer_count);
  }
  for (uint32_t i = 0; i < a->buffer_count; ++i) {
    const rl_capture_buffer_t* x = &a->buffers[i];
    const rl_capture_buffer_t* y = &b->buffers[i];
    if (strcmp(x->name, y->name) != 0 || x->size != y->size ||
        x->capture_address != y->capture_address ||
        x->alignment != y->alignment || x->role != y->role) {
      return RL_INFER_DIFF(
          "buffer %u is %s (%" PRIu64 " bytes at 0x%" PRIx64
          "), step 0 has %s (%" PRIu64 " bytes at 0x%" PRIx64 ")",
          i, y->name, y->size, y->capture_address, x->name, x->size,
          x->capture_address);
    }
  }
  if (a->param_count != b->param_count) {
    return RL_INFER_DIFF("%u parameters, step 0 has %u", b->param_count,
                         a->param_count);
  }
  if (a->launch_count != b->launch_count) {
    return RL_INFER_DIFF("%u launches, step 0 has %u", b->launch_count,
                         a->launch_count);
  }
  for (uint32_t l = 0; l < a->launch_count; ++l) {
    const rl_capture_launch_t* x = &a->launches[l];
    const rl_capture_launch_t* y = &b->launches[l];
    if (x->kernel != y->kernel) {
      return RL_INFER_DIFF("launch %u: kernel %s, step 0 has %s", l,
                           b->kernels[y->kernel].name,
                           a->kernels[x->kernel].name);
    }
    if (x->slot_count != y->slot_count) {
      return RL_INFER_DIFF("launch %u (%s): %u pointer slots, step 0 has %u",
                           l, a->kernels[x->kernel].name, y->slot_count,
                           x->slot_count);
    }
    for (uint32_t s = 0; s < x->slot_count; ++s) {
      if (x->slots[s].kernarg_offset != y->slots[s].kernarg_offset ||
          x->slots[s].buffer != y->slots[s].buffer) {
        return RL_INFER_DIFF(
            "launch %u (%s): pointer slot %u at kernarg byte %u points into "
            "buffer %s, step 0's at byte %u into %s",
            l, a->kernels[x->kernel].name, s, y->slots[s].kernarg_offset,
            b->buffers[y->slots[s].buffer].name, x->slots[s].kernarg_offset,
            a->buffers[x->slots[s].buffer].name);
      }
    }
  }
#undef RL_INFER_DIFF
  return RL_OK;
}

//===----------------------------------------------------------------------===//
// Fitting
//===----------------------------------------------------------------------===//

static int64_t rl_infer_ceil_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
}

static int64_t rl_infer_gcd(int64_t a, int64_t b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

// |values| (n, indexed by step) = scale × positions + add exactly?
static bool rl_infer_affine(const int64_t* values, const int64_t* positions,
                            uint32_t n, int64_t* out_scale, int64_t* out_add) {
  int64_t dv = values[1] - values[0], dp = positions[1] - positions[0];
  if (dp == 0 || dv % dp != 0) return false;
  int64_t scale = dv / dp;
  if (scale == 0) return false;
  int64_t add = 0;
  if (__builtin_mul_overflow(scale, positions[0], &add) ||
      __builtin_sub_overflow(values[0], add, &add)) {
    return false;
  }
  for (uint32_t k = 0; k < n; ++k) {
    int64_t v = 0;
    if (__builtin_mul_overflow(scale, positions[k], &v) ||
        __builtin_add_overflow(v, add, &v) || v != values[k]) {
      return false;
    }
  }
  *out_scale = scale;
  *out_add = add;
  return true;
}

// ceil or floor of (scale × p + add) / d reproduces |values|?
static bool rl_infer_division(const int64_t* values, const int64_t* positions,
                              uint32_t n, int64_t scale, int64_t add,
                              int64_t d, rl_expr_op_t op) {
  for (uint32_t k = 0; k < n; ++k) {
    int64_t inner = 0;
    if (__builtin_mul_overflow(scale, positions[k], &inner) ||
        __builtin_add_overflow(inner, add, &inner) || inner < 0) {
      return false;
    }
    int64_t v = op == RL_EXPR_CEIL_DIV ? rl_infer_ceil_div(inner, d)
                                       : inner / d;
    if (v != values[k]) return false;
  }
  return true;
}

// The affine forms division is tried over: those the plan found in launch
// |launch| first, then pos and pos + 1, then the plan's others.
static uint32_t rl_infer_inner_forms(const rl_infer_plan_t* plan,
                                     uint32_t launch, int64_t (*out)[2],
                                     uint32_t capacity) {
  uint32_t count = 0;
  for (int pass = 0; pass < 3; ++pass) {
    if (pass == 1) {
      const int64_t fixed[2][2] = {{1, 0}, {1, 1}};
      for (int f = 0; f < 2; ++f) {
        bool seen = false;
        for (uint32_t i = 0; i < count; ++i) {
          seen |= out[i][0] == fixed[f][0] && out[i][1] == fixed[f][1];
        }
        if (!seen && count < capacity) {
          out[count][0] = fixed[f][0];
          out[count++][1] = fixed[f][1];
        }
      }
      continue;
    }
    for (uint32_t b = 0; b < plan->binding_count; ++b) {
      const rl_infer_binding_t* x = &plan->bindings[b];
      if (x->param != RL_INFER_POSITION || x->op != RL_EXPR_ADD ||
          (pass == 0) != (x->launch == launch)) {
        continue;
      }
      bool seen = false;
      for (uint32_t i = 0; i < count; ++i) {
        seen |= out[i][0] == x->scale && out[i][1] == x->add;
      }
      if (!seen && count < capacity) {
        out[count][0] = x->scale;
        out[count++][1] = x->add;
      }
    }
  }
  return count;
}

// Reuses a free parameter whose values |values| are an integer multiple
// of; true with *out_param and *out_scale when one is.
static bool rl_infer_reuse_free(const rl_infer_plan_t* plan,
                                const int64_t* values, uint32_t* out_param,
                                int64_t* out_scale) {
  for (uint32_t f = 0; f < plan->free_count; ++f) {
    const int64_t* fv = plan->free_values + (size_t)f * plan->steps;
    int64_t c = 0;
    bool ok = true;
    for (uint32_t k = 0; k < plan->steps && ok; ++k) {
      if (fv[k] == 0) {
        ok = values[k] == 0;
      } else if (c == 0) {
        ok = values[k] % fv[k] == 0 && values[k] / fv[k] != 0;
        c = ok ? values[k] / fv[k] : 0;
      } else {
        ok = fv[k] * c == values[k];
      }
    }
    if (ok && c != 0) {
      *out_param = f;
      *out_scale = c;
      return true;
    }
  }
  return false;
}

typedef enum rl_infer_kind_e {
  RL_INFER_KERNARG,
  RL_INFER_GRID,
  RL_INFER_SLOT,
} rl_infer_kind_t;

static void rl_infer_describe(const rl_capture_t* step0, uint32_t launch,
                              rl_infer_kind_t kind, uint32_t at, char* out,
                              size_t out_size) {
  const char* kernel =
      step0->kernels[step0->launches[launch].kernel].name;
  if (kind == RL_INFER_GRID) {
    snprintf(out, out_size, "launch %u (%s) grid %c", launch, kernel,
             "xyz"[at % 3]);
  } else if (kind == RL_INFER_SLOT) {
    const rl_pointer_slot_t* slot = &step0->launches[launch].slots[at];
    snprintf(out, out_size,
             "launch %u (%s) pointer slot %u (kernarg byte %u) offset in %s",
             launch, kernel, at, slot->kernarg_offset,
             step0->buffers[slot->buffer].name);
  } else {
    snprintf(out, out_size, "launch %u (%s) kernarg byte %u", launch, kernel,
             at);
  }
}

static void rl_infer_format_values(const int64_t* values, uint32_t n,
                                   char* out, size_t out_size) {
  size_t used = 0;
  out[0] = '\0';
  for (uint32_t k = 0; k < n && used + 24 < out_size; ++k) {
    used += (size_t)snprintf(out + used, out_size - used, "%s%" PRId64,
                             k ? ", " : "", values[k]);
  }
}

// Finds the simplest expression for one varying target (contract in the
// header) and adds it to |plan|.
static rl_status_t rl_infer_target(const rl_capture_t* step0,
                                   rl_infer_plan_t* plan, uint32_t launch,
                                   rl_infer_kind_t kind, uint32_t at,
                                   uint32_t size, const int64_t* values) {
  const uint32_t n = plan->steps;
  rl_infer_binding_t binding = {
      .launch = launch,
      .target = kind == RL_INFER_GRID   ? RL_BINDING_GRID
                : kind == RL_INFER_SLOT ? RL_BINDING_POINTER_OFFSET
                                        : RL_BINDING_KERNARG,
      .offset = at, .size = size, .param = RL_INFER_POSITION,
      .op = RL_EXPR_ADD};
  if (rl_infer_affine(values, plan->positions, n, &binding.scale,
                      &binding.add)) {
    return rl_infer_plan_add(plan, &binding);
  }
  if (kind != RL_INFER_SLOT) {
    // A division the launch already uses first (a grid and the hidden
    // block count in its kernarg then get the same expression, which the
    // replay contract requires).
    for (uint32_t b = 0; b < plan->binding_count; ++b) {
      const rl_infer_binding_t* x = &plan->bindings[b];
      if (x->launch != launch || x->param != RL_INFER_POSITION ||
          x->op == RL_EXPR_ADD ||
          !rl_infer_division(values, plan->positions, n, x->scale, x->add,
                             x->operand, x->op)) {
        continue;
      }
      binding.scale = x->scale;
      binding.add = x->add;
      binding.op = x->op;
      binding.operand = x->operand;
      return rl_infer_plan_add(plan, &binding);
    }
    int64_t forms[64][2];
    uint32_t form_count = rl_infer_inner_forms(plan, launch, forms, 64);
    int64_t divisors[24];
    uint32_t divisor_count = 0;
    const rl_capture_launch_t* l = &step0->launches[launch];
    for (int a = 0; a < 3; ++a) {
      if (l->block[a] > 1) divisors[divisor_count++] = l->block[a];
    }
    for (int64_t d = 2; d <= 65536; d *= 2) divisors[divisor_count++] = d;
    for (uint32_t d = 0; d < divisor_count; ++d) {
      for (uint32_t f = 0; f < form_count; ++f) {
        const rl_expr_op_t ops[2] = {RL_EXPR_CEIL_DIV, RL_EXPR_DIV};
        for (int o = 0; o < 2; ++o) {
          if (rl_infer_division(values, plan->positions, n, forms[f][0],
                                forms[f][1], divisors[d], ops[o])) {
            binding.scale = forms[f][0];
            binding.add = forms[f][1];
            binding.op = ops[o];
            binding.operand = divisors[d];
            return rl_infer_plan_add(plan, &binding);
          }
        }
      }
    }
  }
  char where[512], list[256];
  rl_infer_describe(step0, launch, kind, at, where, sizeof(where));
  rl_infer_format_values(values, n, list, sizeof(list));
  bool usable = kind != RL_INFER_GRID;
  for (uint32_t k = 0; k < n; ++k) usable &= values[k] >= 0;
  if (!usable) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "unexplained variation: %s takes %s over the steps: no "
                     "affine or division form of %s fits%s",
                     where, list, "pos",
                     kind == RL_INFER_GRID
                         ? " (a grid is never a free parameter)"
                         : ", and negative values cannot be a free parameter");
  }
  // A free parameter: a multiple of an existing one, else new with scale
  // 1 (kernarg) or the gcd of the values (pointer offsets).
  binding.op = RL_EXPR_ADD;
  binding.add = 0;
  if (rl_infer_reuse_free(plan, values, &binding.param, &binding.scale)) {
    return rl_infer_plan_add(plan, &binding);
  }
  int64_t scale = 1;
  if (kind == RL_INFER_SLOT) {
    scale = 0;
    for (uint32_t k = 0; k < n; ++k) scale = rl_infer_gcd(scale, values[k]);
  }
  int64_t free_values[n];
  for (uint32_t k = 0; k < n; ++k) free_values[k] = values[k] / scale;
  RL_RETURN_IF_ERROR(rl_infer_plan_add_free(plan, free_values, &binding.param));
  binding.scale = scale;
  return rl_infer_plan_add(plan, &binding);
}

static bool rl_infer_overlaps_slot(const rl_capture_launch_t* launch,
                                   uint32_t offset, uint32_t size) {
  for (uint32_t s = 0; s < launch->slot_count; ++s) {
    uint32_t at = launch->slots[s].kernarg_offset;
    if (offset < at + 8 && at < offset + size) return true;
  }
  return false;
}

// Infers the bindings of steps[0..n) into |plan|.
static rl_status_t rl_infer_plan(rl_capture_t* const* steps, uint32_t n,
                                 const int64_t* positions, int64_t limit,
                                 rl_infer_plan_t* plan) {
  memset(plan, 0, sizeof(*plan));
  plan->steps = n;
  plan->positions = positions;
  plan->position_limit = limit;
  const rl_capture_t* step0 = steps[0];
  int64_t values[n];
  char where[512], list[256];
  for (uint32_t l = 0; l < step0->launch_count; ++l) {
    const rl_capture_launch_t* launch = &step0->launches[l];
    // Geometry that no binding can carry.
    for (uint32_t k = 1; k < n; ++k) {
      const rl_capture_launch_t* other = &steps[k]->launches[l];
      if (memcmp(launch->block, other->block, sizeof(launch->block)) != 0 ||
          launch->dynamic_lds != other->dynamic_lds) {
        return RL_STATUS(
            RL_STATUS_CONTRACT,
            "unexplained variation: launch %u (%s): block %ux%ux%u, dynamic "
            "LDS %u at step %u, step 0 has %ux%ux%u, %u (a block or LDS size "
            "cannot be bound)",
            l, step0->kernels[launch->kernel].name, other->block[0],
            other->block[1], other->block[2], other->dynamic_lds, k,
            launch->block[0], launch->block[1], launch->block[2],
            launch->dynamic_lds);
      }
    }
    // Kernarg words outside the pointer slots.
    for (uint32_t o = 0; o + 4 <= launch->kernarg_size; o += 4) {
      if (rl_infer_overlaps_slot(launch, o, 4)) continue;
      uint32_t size = 4;
      bool varies = false, high = false;
      for (uint32_t k = 1; k < n; ++k) {
        const uint8_t* a = launch->kernarg;
        const uint8_t* b = steps[k]->launches[l].kernarg;
        varies |= memcmp(a + o, b + o, 4) != 0;
        high |= o % 8 == 0 && o + 8 <= launch->kernarg_size &&
                !rl_infer_overlaps_slot(launch, o, 8) &&
                memcmp(a + o + 4, b + o + 4, 4) != 0;
      }
      if (!varies && !high) continue;
      if (high) {
        // An 8-byte word when its low word is not affine in pos but its
        // 64-bit values are (a 64-bit value crossing 2^32); else two
        // 4-byte words.
        int64_t low[n], scale = 0, add = 0;
        for (uint32_t k = 0; k < n; ++k) {
          const uint8_t* at = steps[k]->launches[l].kernarg + o;
          low[k] = (int64_t)rl_load_le(at, 4);
          values[k] = (int64_t)rl_load_le(at, 8);
        }
        bool low_varies = false;
        for (uint32_t k = 1; k < n; ++k) low_varies |= low[k] != low[0];
        if (low_varies && !rl_infer_affine(low, positions, n, &scale, &add) &&
            rl_infer_affine(values, positions, n, &scale, &add)) {
          size = 8;
        }
      }
      bool negative = false;
      for (uint32_t k = 0; k < n; ++k) {
        uint64_t v = rl_load_le(steps[k]->launches[l].kernarg + o, size);
        negative |= v > (uint64_t)INT64_MAX;
        values[k] = (int64_t)v;
      }
      if (negative) {
        rl_infer_describe(step0, l, RL_INFER_KERNARG, o, where, sizeof(where));
        rl_infer_format_values(values, n, list, sizeof(list));
        return RL_STATUS(RL_STATUS_CONTRACT,
                         "unexplained variation: %s (8 bytes) takes %s: "
                         "values past 2^63 cannot be bound",
                         where, list);
      }
      RL_RETURN_IF_ERROR(rl_infer_target(step0, plan, l, RL_INFER_KERNARG, o,
                                         size, values));
      o += size - 4;
    }
    for (uint32_t a = 0; a < 3; ++a) {
      bool varies = false;
      for (uint32_t k = 0; k < n; ++k) {
        values[k] = steps[k]->launches[l].grid[a];
        varies |= values[k] != values[0];
      }
      if (varies) {
        RL_RETURN_IF_ERROR(
            rl_infer_target(step0, plan, l, RL_INFER_GRID, a, 4, values));
      }
    }
  }
  // Pointer offsets after every kernarg word, so a token × row offset
  // reuses a token kernarg's free parameter.
  for (uint32_t l = 0; l < step0->launch_count; ++l) {
    const rl_capture_launch_t* launch = &step0->launches[l];
    for (uint32_t s = 0; s < launch->slot_count; ++s) {
      bool varies = false;
      for (uint32_t k = 0; k < n; ++k) {
        values[k] = (int64_t)steps[k]->launches[l].slots[s].offset;
        varies |= values[k] != values[0];
      }
      if (varies) {
        RL_RETURN_IF_ERROR(
            rl_infer_target(step0, plan, l, RL_INFER_SLOT, s, 8, values));
      }
    }
  }
  return RL_OK;
}

//===----------------------------------------------------------------------===//
// Admitted ranges
//===----------------------------------------------------------------------===//

// The access of slot |s| relative to its pointer, when it is the same in
// every step: [rel_lo, rel_hi). False when the extent is the whole buffer
// or moves differently (then only the pointer itself is kept inside).
static bool rl_infer_slot_access(rl_capture_t* const* steps, uint32_t n,
                                 uint32_t l, uint32_t s, int64_t* rel_lo,
                                 int64_t* rel_hi) {
  for (uint32_t k = 0; k < n; ++k) {
    const rl_pointer_slot_t* slot = &steps[k]->launches[l].slots[s];
    const rl_capture_buffer_t* buffer = &steps[k]->buffers[slot->buffer];
    int64_t lo = (int64_t)slot->extent_offset - (int64_t)slot->offset;
    int64_t hi = lo + (int64_t)slot->extent_size;
    if (slot->extent_offset == 0 && slot->extent_size == buffer->size) {
      return false;
    }
    if (k > 0 && (lo != *rel_lo || hi != *rel_hi)) return false;
    *rel_lo = lo;
    *rel_hi = hi;
  }
  return true;
}

// Narrows [*p_lo, *p_hi] to the p with lo ≤ scale × p + add ≤ hi.
static void rl_infer_narrow_affine(int64_t scale, int64_t add, int64_t lo,
                                   int64_t hi, int64_t* p_lo, int64_t* p_hi) {
  // Bounds computed in long double would round; stay in 128-bit ints.
  __int128 a = (__int128)lo - add, b = (__int128)hi - add;
  __int128 from, to;
  if (scale > 0) {
    from = a / scale + ((a % scale != 0) && a > 0);
    to = b / scale - ((b % scale != 0) && b < 0);
  } else {
    __int128 s = -(__int128)scale;  // lo ≤ -s p + add ≤ hi
    from = -b / s + (((-b) % s != 0) && -b > 0);
    to = -a / s - (((-a) % s != 0) && -a < 0);
  }
  if (from > *p_lo) *p_lo = from > INT64_MAX ? INT64_MAX : (int64_t)from;
  if (to < *p_hi) *p_hi = to < INT64_MIN ? INT64_MIN : (int64_t)to;
}

// Narrows the range of |binding|'s parameter so its value fits
// [lo, hi] (value = op(scale × p + add, operand)).
static void rl_infer_narrow(const rl_infer_binding_t* binding, int64_t lo,
                            int64_t hi, int64_t* p_lo, int64_t* p_hi) {
  if (binding->op == RL_EXPR_ADD) {
    rl_infer_narrow_affine(binding->scale, binding->add, lo, hi, p_lo, p_hi);
    return;
  }
  // Inner x = scale × p + add must be ≥ 0 and op(x, d) in [lo, hi].
  int64_t d = binding->operand;
  __int128 x_lo = lo <= 0 ? 0
                  : binding->op == RL_EXPR_CEIL_DIV
                      ? (__int128)(lo - 1) * d + 1
                      : (__int128)lo * d;
  __int128 x_hi = binding->op == RL_EXPR_CEIL_DIV
                      ? (__int128)hi * d
                      : (__int128)hi * d + d - 1;
  if (x_hi > INT64_MAX) x_hi = INT64_MAX;
  rl_infer_narrow_affine(binding->scale, binding->add, (int64_t)x_lo,
                         (int64_t)x_hi, p_lo, p_hi);
}

//===----------------------------------------------------------------------===//
// The merged capture
//===----------------------------------------------------------------------===//

typedef struct rl_infer_merged_s {
  rl_capture_t* capture;
  uint32_t base_params;  // step 0's parameters come first
  uint32_t position;     // index of pos
  int64_t* values;       // steps × param_count
} rl_infer_merged_t;

static void rl_infer_merged_free(rl_infer_merged_t* merged) {
  rl_capture_destroy(merged->capture);
  free(merged->values);
  memset(merged, 0, sizeof(*merged));
}

static uint32_t rl_infer_param_index(const rl_infer_merged_t* merged,
                                     uint32_t plan_param) {
  return plan_param == RL_INFER_POSITION
             ? merged->position
             : merged->position + 1 + plan_param;
}

static rl_expr_t rl_infer_expr(const rl_infer_merged_t* merged,
                               const rl_infer_binding_t* binding) {
  return (rl_expr_t){.param = rl_infer_param_index(merged, binding->param),
                     .add = binding->add, .op = binding->op,
                     .operand = binding->op == RL_EXPR_ADD ? 0
                                                           : binding->operand,
                     .scale = binding->scale == 1 ? 0 : binding->scale};
}

// The admitted range [*out_min, *out_max) of plan parameter |param|: the
// widest around the recorded values on which every binding of it fits.
static rl_status_t rl_infer_param_range(rl_capture_t* const* steps,
                                        const rl_infer_plan_t* plan,
                                        uint32_t param, const char* name,
                                        int64_t* out_min, int64_t* out_max) {
  const rl_capture_t* step0 = steps[0];
  int64_t p_lo = 0, p_hi = INT64_MAX - 1;
  if (param == RL_INFER_POSITION && plan->position_limit > 0) {
    p_hi = plan->position_limit - 1;
  }
  for (uint32_t b = 0; b < plan->binding_count; ++b) {
    const rl_infer_binding_t* x = &plan->bindings[b];
    if (x->param != param) continue;
    const rl_capture_launch_t* launch = &step0->launches[x->launch];
    int64_t lo = 0, hi = 0;
    if (x->target == RL_BINDING_POINTER_OFFSET) {
      const rl_pointer_slot_t* slot = &launch->slots[x->offset];
      int64_t size = (int64_t)step0->buffers[slot->buffer].size;
      int64_t rel_lo = 0, rel_hi = 0;
      hi = size;
      if (rl_infer_slot_access(steps, plan->steps, x->launch, x->offset,
                               &rel_lo, &rel_hi)) {
        lo = rel_lo < 0 ? -rel_lo : 0;
        hi = size - (rel_hi > 0 ? rel_hi : 0);
      }
    } else {
      rl_scalar_binding_t probe = {.target = x->target, .offset = x->offset,
                                   .size = x->size};
      rl_bind_fit_range(step0, launch, &probe, &lo, &hi);
    }
    rl_infer_narrow(x, lo, hi, &p_lo, &p_hi);
  }
  for (uint32_t k = 0; k < plan->steps; ++k) {
    int64_t v = param == RL_INFER_POSITION
                    ? plan->positions[k]
                    : plan->free_values[(size_t)param * plan->steps + k];
    if (v < p_lo || v > p_hi) {
      return RL_STATUS(RL_STATUS_CONTRACT,
                       "%s=%" PRId64 " at step %u lies outside the range "
                       "[%" PRId64 ", %" PRId64 "] its bindings admit",
                       name, v, k, p_lo, p_hi);
    }
  }
  *out_min = p_lo;
  *out_max = p_hi + 1;
  return RL_OK;
}

// Step 0 with the plan's parameters and bindings.
static rl_status_t rl_infer_build(rl_capture_t* const* steps,
                                  const rl_infer_plan_t* plan,
                                  const char* position_name,
                                  rl_infer_merged_t* out) {
  memset(out, 0, sizeof(*out));
  const rl_capture_t* s0 = steps[0];
  rl_capture_t* c = NULL;
  RL_RETURN_IF_ERROR(rl_capture_create(s0->workload, &c));
  out->capture = c;
  uint32_t index = 0;
  for (uint32_t i = 0; i < s0->code_object_count; ++i) {
    RL_RETURN_IF_ERROR(rl_capture_add_code_object(
        c, s0->code_objects[i].bytes, s0->code_objects[i].size, &index));
  }
  for (uint32_t i = 0; i < s0->kernel_count; ++i) {
    RL_RETURN_IF_ERROR(rl_capture_add_kernel(c, s0->kernels[i].code_object,
                                             s0->kernels[i].name, &index));
  }
  for (uint32_t i = 0; i < s0->buffer_count; ++i) {
    RL_RETURN_IF_ERROR(rl_capture_add_buffer(c, &s0->buffers[i], &index));
  }
  for (uint32_t i = 0; i < s0->param_count; ++i) {
    RL_RETURN_IF_ERROR(rl_capture_add_param(c, &s0->params[i], &index));
  }
  out->base_params = s0->param_count;
  out->position = s0->param_count;
  const uint32_t total = s0->param_count + 1 + plan->free_count;
  for (uint32_t p = 0; p < 1 + plan->free_count; ++p) {
    char name[RL_CAPTURE_NAME_MAX];
    uint32_t plan_param = p == 0 ? RL_INFER_POSITION : p - 1;
    snprintf(name, sizeof(name), "%s", p == 0 ? position_name : "");
    if (p > 0) snprintf(name, sizeof(name), "free%u", p - 1);
    rl_capture_param_t param = {.name = name};
    RL_RETURN_IF_ERROR(rl_infer_param_range(steps, plan, plan_param, name,
                                            &param.min, &param.max));
    param.capture_value = p == 0 ? plan->positions[0] : plan->free_values[
        (size_t)(p - 1) * plan->steps];
    RL_RETURN_IF_ERROR(rl_capture_add_param(c, &param, &index));
  }
  out->values = calloc((size_t)plan->steps * total + 1u, sizeof(int64_t));
  if (!out->values) return rl_status_out_of_memory();
  for (uint32_t k = 0; k < plan->steps; ++k) {
    int64_t* row = out->values + (size_t)k * total;
    for (uint32_t i = 0; i < s0->param_count; ++i) {
      row[i] = s0->params[i].capture_value;
    }
    row[out->position] = plan->positions[k];
    for (uint32_t f = 0; f < plan->free_count; ++f) {
      row[out->position + 1 + f] =
          plan->free_values[(size_t)f * plan->steps + k];
    }
  }
  for (uint32_t l = 0; l < s0->launch_count; ++l) {
    rl_capture_launch_t launch = s0->launches[l];
    uint32_t count = 0;
    for (uint32_t b = 0; b < plan->binding_count; ++b) {
      count += plan->bindings[b].launch == l;
    }
    rl_scalar_binding_t bindings[count + 1];
    rl_pointer_slot_t slots[launch.slot_count + 1];
    memcpy(slots, launch.slots, launch.slot_count * sizeof(*slots));
    count = 0;
    for (uint32_t b = 0; b < plan->binding_count; ++b) {
      const rl_infer_binding_t* x = &plan->bindings[b];
      if (x->launch != l) continue;
      bindings[count++] = (rl_scalar_binding_t){
          .target = x->target, .offset = x->offset, .size = x->size,
          .expr = rl_infer_expr(out, x)};
      if (x->target != RL_BINDING_POINTER_OFFSET) continue;
      // The slot's extent: the union of its access over the admitted
      // range (the expression is monotone), else the whole buffer.
      rl_pointer_slot_t* slot = &slots[x->offset];
      const rl_capture_param_t* param =
          &c->params[rl_infer_param_index(out, x->param)];
      int64_t rel_lo = 0, rel_hi = 0;
      uint64_t size = s0->buffers[slot->buffer].size;
      slot->extent_offset = 0;
      slot->extent_size = size;
      if (rl_infer_slot_access(steps, plan->steps, l, x->offset, &rel_lo,
                               &rel_hi)) {
        int64_t a = x->scale * param->min + x->add;
        int64_t z = x->scale * (param->max - 1) + x->add;
        int64_t lo = (a < z ? a : z) + rel_lo, hi = (a < z ? z : a) + rel_hi;
        if (lo >= 0 && hi >= lo && (uint64_t)hi <= size) {
          slot->extent_offset = (uint64_t)lo;
          slot->extent_size = (uint64_t)(hi - lo);
        }
      }
    }
    launch.slots = slots;
    launch.bindings = bindings;
    launch.binding_count = count;
    RL_RETURN_IF_ERROR(rl_status_annotate(
        rl_capture_add_launch(c, &launch, &index), "launch %u", l));
  }
  for (uint32_t i = 0; i < s0->region_count; ++i) {
    RL_RETURN_IF_ERROR(rl_capture_add_region(c, &s0->regions[i], &index));
  }
  for (uint32_t i = 0; i < s0->window_count; ++i) {
    RL_RETURN_IF_ERROR(rl_capture_add_window(c, &s0->windows[i], &index));
  }
  // Without a window of its own, the capture walks pos over the (up to 8)
  // admitted positions after the last captured step: what shadow and bench
  // run by default.
  const rl_capture_param_t* pos = &c->params[out->position];
  int64_t start = plan->positions[plan->steps - 1] + 1;
  if (s0->window_count == 0 && start < pos->max) {
    rl_capture_window_t window = {
        .param = out->position, .start = start, .stride = 1,
        .count = (uint32_t)(pos->max - start < 8 ? pos->max - start : 8)};
    RL_RETURN_IF_ERROR(rl_capture_add_window(c, &window, &index));
  }
  // Work a step missed is work the merged capture misses too.
  for (uint32_t k = 0; k < plan->steps; ++k) {
    if (!rl_capture_incomplete(steps[k])) continue;
    char reason[512];
    snprintf(reason, sizeof(reason), "step %u: %s", k,
             steps[k]->incomplete_reason ? steps[k]->incomplete_reason
                                         : "unrecorded work");
    RL_RETURN_IF_ERROR(rl_capture_mark_incomplete(
        c, steps[k]->bypassed_launches, reason));
  }
  return rl_capture_validate(c);
}

// Evaluates every launch of |merged| at |values| (rl_launch_bind, the
// evaluator every route uses) and compares with |step|: RL_STATUS_CONTRACT
// naming the first difference, prefixed with |what|.
static rl_status_t rl_infer_reproduce(const rl_capture_t* merged,
                                      const int64_t* values,
                                      const rl_capture_t* step,
                                      const char* what) {
  uint64_t addresses[merged->buffer_count + 1];
  for (uint32_t i = 0; i < merged->buffer_count; ++i) {
    addresses[i] = merged->buffers[i].capture_address;
  }
  for (uint32_t l = 0; l < merged->launch_count; ++l) {
    const rl_capture_launch_t* recorded = &step->launches[l];
    uint8_t* kernarg = malloc(recorded->kernarg_size + 1u);
    if (!kernarg) return rl_status_out_of_memory();
    uint32_t grid[3];
    rl_status_t status =
        rl_launch_bind(merged, l, values, addresses, kernarg, grid);
    if (status) {
      free(kernarg);
      return rl_status_annotate(status, "%s", what);
    }
    const char* kernel = merged->kernels[recorded->kernel].name;
    for (uint32_t a = 0; a < 3; ++a) {
      if (grid[a] != recorded->grid[a]) {
        free(kernarg);
        return RL_STATUS(RL_STATUS_CONTRACT,
                         "%s: launch %u (%s) grid %c: predicted %u, recorded "
                         "%u",
                         what, l, kernel, "xyz"[a], grid[a],
                         recorded->grid[a]);
      }
    }
    for (uint32_t o = 0; o < recorded->kernarg_size; ++o) {
      if (kernarg[o] == recorded->kernarg[o]) continue;
      uint32_t word = o & ~3u;
      uint32_t width = word + 4 <= recorded->kernarg_size ? 4 : 1;
      uint64_t predicted = rl_load_le(kernarg + word, width);
      uint64_t actual = rl_load_le(recorded->kernarg + word, width);
      free(kernarg);
      return RL_STATUS(RL_STATUS_CONTRACT,
                       "%s: launch %u (%s) kernarg byte %u: predicted "
                       "%" PRIu64 ", recorded %" PRIu64,
                       what, l, kernel, word, predicted, actual);
    }
    free(kernarg);
  }
  return RL_OK;
}

// The held-out check: bindings of steps 0..K-2 predict step K-1.
static rl_status_t rl_infer_holdout(rl_capture_t* const* steps, uint32_t k,
                                    const int64_t* positions, int64_t limit,
                                    const char* position_name,
                                    rl_step_infer_result_t* out) {
  rl_infer_plan_t plan;
  rl_infer_merged_t merged = {0};
  const uint32_t held = k - 1;
  rl_status_t status = rl_infer_plan(steps, held, positions, limit, &plan);
  if (!status) status = rl_infer_build(steps, &plan, position_name, &merged);
  int64_t* values = NULL;
  if (!status) {
    // pos from the caller; each free parameter from the held-out step's
    // value at its first site (value / scale, which must divide).
    const rl_capture_t* c = merged.capture;
    values = calloc(c->param_count + 1u, sizeof(int64_t));
    if (!values) status = rl_status_out_of_memory();
    for (uint32_t p = 0; !status && p < c->param_count; ++p) {
      values[p] = c->params[p].capture_value;
    }
    if (!status) values[merged.position] = positions[held];
    for (uint32_t f = 0; !status && f < plan.free_count; ++f) {
      for (uint32_t b = 0; b < plan.binding_count; ++b) {
        const rl_infer_binding_t* x = &plan.bindings[b];
        if (x->param != f) continue;
        const rl_capture_launch_t* l = &steps[held]->launches[x->launch];
        int64_t v = x->target == RL_BINDING_POINTER_OFFSET
                        ? (int64_t)l->slots[x->offset].offset
                        : (int64_t)rl_load_le(l->kernarg + x->offset, x->size);
        values[merged.position + 1 + f] = v / x->scale;
        break;
      }
    }
  }
  char what[96];
  snprintf(what, sizeof(what), "held-out step %u (%s=%" PRId64 ")", held,
           position_name, positions[held]);
  if (!status) {
    status = rl_infer_reproduce(merged.capture, values, steps[held], what);
  }
  out->holdout_checked = true;
  out->holdout_ok = status == RL_OK;
  if (!status) {
    snprintf(out->holdout_line, sizeof(out->holdout_line),
             "%s: predicted exactly by the bindings of steps 0..%u (%u "
             "bindings, %u free parameters)",
             what, held - 1, plan.binding_count, plan.free_count);
  } else {
    snprintf(out->holdout_line, sizeof(out->holdout_line),
             "held-out step %u NOT predicted by the bindings of steps "
             "0..%u: %s",
             held, held - 1, rl_status_message(status));
  }
  free(values);
  rl_infer_merged_free(&merged);
  rl_infer_plan_free(&plan);
  return status;
}

void rl_step_infer_result_free(rl_step_infer_result_t* result) {
  if (!result) return;
  rl_capture_destroy(result->capture);
  free(result->values);
  memset(result, 0, sizeof(*result));
}

rl_status_t rl_step_infer(rl_capture_t* const* steps, uint32_t step_count,
                          const rl_step_infer_options_t* options,
                          rl_step_infer_result_t* out) {
  if (!out) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "step infer: no result");
  }
  memset(out, 0, sizeof(*out));
  if (!steps || step_count < 2) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "step infer: %u steps (at least 2 are needed)",
                     step_count);
  }
  const rl_step_infer_options_t defaults = {0};
  if (!options) options = &defaults;
  const char* name = options->position_name ? options->position_name : "pos";
  int64_t positions[step_count];
  for (uint32_t k = 0; k < step_count; ++k) {
    if (!steps[k]) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "step infer: step %u is "
                       "NULL", k);
    }
    positions[k] = options->positions ? options->positions[k] : (int64_t)k;
    if (k > 0 && positions[k] <= positions[k - 1]) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                       "step infer: positions must increase (step %u has "
                       "%" PRId64 " after %" PRId64 ")",
                       k, positions[k], positions[k - 1]);
    }
    for (uint32_t l = 0; l < steps[k]->launch_count; ++l) {
      if (steps[k]->launches[l].binding_count) {
        return RL_STATUS(RL_STATUS_UNSUPPORTED,
                         "step infer: step %u launch %u already has "
                         "bindings (inference over declared bindings is not "
                         "supported)", k, l);
      }
    }
    if (k > 0) RL_RETURN_IF_ERROR(rl_infer_compare(steps[0], steps[k], k));
  }
  if (rl_capture_find_param(steps[0], name, &(uint32_t){0})) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "step infer: the steps already have a parameter %s",
                     name);
  }
  rl_infer_plan_t plan;
  rl_infer_merged_t merged = {0};
  rl_status_t status = rl_infer_plan(steps, step_count, positions,
                                     options->position_limit, &plan);
  if (!status) status = rl_infer_build(steps, &plan, name, &merged);
  for (uint32_t k = 0; !status && k < step_count; ++k) {
    char what[64];
    snprintf(what, sizeof(what), "step %u (%s=%" PRId64 ") not reproduced", k,
             name, positions[k]);
    status = rl_infer_reproduce(
        merged.capture, merged.values + (size_t)k * merged.capture->param_count,
        steps[k], what);
  }
  if (!status && step_count >= 4) {
    rl_status_t holdout =
        rl_infer_holdout(steps, step_count, positions,
                         options->position_limit, name, out);
    if (holdout && !options->allow_holdout_miss) {
      status = holdout;
    } else {
      rl_status_free(holdout);
    }
  } else if (!status) {
    snprintf(out->holdout_line, sizeof(out->holdout_line),
             "held-out step: not checked (%u steps; 4 or more are needed)",
             step_count);
  }
  if (status) {
    char line[sizeof(out->holdout_line)];
    memcpy(line, out->holdout_line, sizeof(line));
    bool checked = out->holdout_checked, ok = out->holdout_ok;
    rl_infer_merged_free(&merged);
    rl_infer_plan_free(&plan);
    memset(out, 0, sizeof(*out));
    memcpy(out->holdout_line, line, sizeof(line));
    out->holdout_checked = checked;
    out->holdout_ok = ok;
    return status;
  }
  out->capture = merged.capture;
  out->values = merged.values;
  out->step_count = step_count;
  out->param_count = merged.capture->param_count;
  out->position_param = merged.position;
  out->free_param_count = plan.free_count;
  out->binding_count = plan.binding_count;
  const rl_capture_param_t* pos = &out->capture->params[merged.position];
  snprintf(out->message, sizeof(out->message),
           "%u steps (%s %" PRId64 "..%" PRId64 "): %u bindings, %u free "
           "parameters; %s admitted [%" PRId64 ", %" PRId64 ")",
           step_count, name, positions[0], positions[step_count - 1],
           plan.binding_count, plan.free_count, name, pos->min, pos->max);
  rl_infer_plan_free(&plan);
  return RL_OK;
}
