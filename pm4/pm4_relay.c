// The relay slots of a PM4 lowering (pm4/pm4_lower.h "Relay"): one 8-byte
// slot per distinct expression of the capture's relayable kernarg
// bindings, numbered in order of first use.
#include <stdlib.h>
#include <string.h>

#include "pm4/pm4_lower_internal.h"

bool rl_pm4_relayable(const rl_scalar_binding_t* binding) {
  return binding->target == RL_BINDING_KERNARG &&
         (binding->size == 4 || binding->size == 8) &&
         binding->offset % 4 == 0;
}

rl_status_t rl_pm4_relay_assign(const rl_capture_t* capture,
                                uint32_t* out_first, uint32_t* out_slots,
                                uint32_t* out_count) {
  *out_count = 0;
  uint64_t bindings = 0;
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    if (out_first) out_first[l] = (uint32_t)bindings;
    bindings += capture->launches[l].binding_count;
  }
  if (bindings > UINT32_MAX / 4) {
    return RL_STATUS(RL_STATUS_CONTRACT, "%llu bindings do not fit",
                     (unsigned long long)bindings);
  }
  uint32_t size = 16;
  while (size < 2u * bindings) size *= 2;
  // map[h] = slot + 1 (0: empty); exprs[slot] = its expression.
  uint32_t* map = calloc(size, sizeof(*map));
  const rl_expr_t** exprs = calloc(bindings + 1u, sizeof(*exprs));
  if (!map || !exprs) {
    free(map);
    free(exprs);
    return rl_status_out_of_memory();
  }
  uint32_t count = 0, at_binding = 0;
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    const rl_capture_launch_t* launch = &capture->launches[l];
    for (uint32_t b = 0; b < launch->binding_count; ++b, ++at_binding) {
      const rl_scalar_binding_t* binding = &launch->bindings[b];
      uint32_t slot = RL_PM4_RELAY_NONE;
      if (rl_pm4_relayable(binding)) {
        uint32_t h = (uint32_t)rl_bind_expr_hash(&binding->expr) & (size - 1);
        while (map[h] && !rl_bind_expr_same(exprs[map[h] - 1],
                                            &binding->expr)) {
          h = (h + 1) & (size - 1);
        }
        if (!map[h]) {
          exprs[count] = &binding->expr;
          map[h] = ++count;
        }
        slot = map[h] - 1;
      }
      if (out_slots) out_slots[at_binding] = slot;
    }
  }
  free(map);
  free(exprs);
  *out_count = count;
  return RL_OK;
}

rl_status_t rl_pm4_relay_slot_count(const rl_capture_t* capture,
                                    uint32_t* out_count) {
  *out_count = 0;
  if (!capture) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "relay slots: no capture");
  }
  return rl_pm4_relay_assign(capture, NULL, NULL, out_count);
}

rl_status_t rl_pm4_relay_layout(rl_pm4_layout_t* layout) {
  const rl_capture_t* capture = layout->inputs->capture;
  if (layout->inputs->relay_address == 0) return RL_OK;
  if (layout->inputs->relay_address % 8 != 0) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "relay slots at 0x%llx: expected an 8-byte aligned "
                     "address",
                     (unsigned long long)layout->inputs->relay_address);
  }
  uint64_t bindings = 0;
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    bindings += capture->launches[l].binding_count;
  }
  layout->binding_first = calloc(capture->launch_count + 1u, sizeof(uint32_t));
  layout->relay_slots = calloc(bindings + 1u, sizeof(uint32_t));
  if (!layout->binding_first || !layout->relay_slots) {
    return rl_status_out_of_memory();
  }
  return rl_pm4_relay_assign(capture, layout->binding_first,
                             layout->relay_slots, &layout->relay_count);
}
