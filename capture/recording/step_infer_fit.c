// Binding inference, the fitting half (capture/recording/step_infer_internal.h): the
// structure check between steps and, per varying kernarg word, grid axis and
// pointer offset, the first form that reproduces every step (affine in pos,
// ceil/floor division of an affine form, a free per-step parameter).
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/bind/launch_bind.h"
#include "capture/recording/step_infer_internal.h"

void rl_infer_plan_free(rl_infer_plan_t* plan) {
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
rl_status_t rl_infer_compare(const rl_capture_t* a, const rl_capture_t* b,
                             uint32_t k) {
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
bool rl_infer_affine(const int64_t* values, const int64_t* positions,
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
rl_status_t rl_infer_plan(rl_capture_t* const* steps, uint32_t n,
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

