// JSON form of `redline inspect` (tools/inspect_json.h). cJSON's add
// functions tolerate a NULL parent, so an allocation failure anywhere
// surfaces as a NULL or incomplete tree that cJSON_Print rejects.
#include "tools/inspect_json.h"

#include <stdio.h>

void rl_inspect_format_reason(const rl_capture_t* capture,
                              const rl_hazard_conflict_t* conflict, char* out,
                              size_t out_size) {
  snprintf(out, out_size, "%s on %s[%llu, +%llu) after launch %u",
           rl_hazard_kind_name(conflict->kind),
           capture->buffers[conflict->buffer].name,
           (unsigned long long)conflict->offset,
           (unsigned long long)conflict->size, conflict->earlier);
}

static void rl_json_add_digest(cJSON* object, const char* key,
                               rl_digest128_t digest) {
  char hex[RL_DIGEST128_HEX_LENGTH + 1];
  rl_digest128_format(digest, hex);
  cJSON_AddStringToObject(object, key, hex);
}

static cJSON* rl_json_u32_array(const uint32_t* values, int count) {
  cJSON* array = cJSON_CreateArray();
  for (int i = 0; i < count; ++i) {
    cJSON_AddItemToArray(array, cJSON_CreateNumber(values[i]));
  }
  return array;
}

static cJSON* rl_json_expr(const rl_capture_t* capture, const rl_expr_t* expr) {
  cJSON* object = cJSON_CreateObject();
  char text[RL_CAPTURE_NAME_MAX + 64];
  rl_expr_format(capture, expr, text, sizeof(text));
  cJSON_AddStringToObject(object, "text", text);
  cJSON_AddStringToObject(object, "param", capture->params[expr->param].name);
  cJSON_AddNumberToObject(object, "add", (double)expr->add);
  cJSON_AddStringToObject(object, "op", rl_expr_op_name(expr->op));
  cJSON_AddNumberToObject(object, "operand", (double)expr->operand);
  cJSON_AddNumberToObject(object, "scale", (double)rl_expr_scale(expr));
  return object;
}

static cJSON* rl_json_binding(const rl_capture_t* capture, uint32_t launch,
                              const rl_scalar_binding_t* binding) {
  cJSON* object = cJSON_CreateObject();
  cJSON_AddNumberToObject(object, "launch", launch);
  bool grid = binding->target == RL_BINDING_GRID;
  bool pointer = binding->target == RL_BINDING_POINTER_OFFSET;
  cJSON_AddStringToObject(object, "target",
                          grid ? "grid" : pointer ? "pointer_offset" : "kernarg");
  if (pointer) {
    cJSON_AddNumberToObject(object, "slot", binding->offset);
  } else if (grid) {
    char axis[2] = {"xyz"[binding->offset % 3], 0};
    cJSON_AddStringToObject(object, "axis", axis);
  } else {
    cJSON_AddNumberToObject(object, "offset", binding->offset);
    cJSON_AddNumberToObject(object, "size", binding->size);
  }
  cJSON_AddItemToObject(object, "expr", rl_json_expr(capture, &binding->expr));
  return object;
}

static cJSON* rl_json_code(const rl_capture_t* capture) {
  cJSON* array = cJSON_CreateArray();
  for (uint32_t i = 0; i < capture->code_object_count; ++i) {
    const rl_capture_code_object_t* co = &capture->code_objects[i];
    cJSON* object = cJSON_CreateObject();
    rl_json_add_digest(object, "digest", co->digest);
    cJSON_AddNumberToObject(object, "size", (double)co->size);
    cJSON_AddStringToObject(object, "target", co->parsed->target);
    cJSON_AddNumberToObject(object, "code_object_version",
                            co->parsed->code_object_version);
    cJSON_AddItemToArray(array, object);
  }
  return array;
}

static cJSON* rl_json_kernels(const rl_capture_t* capture) {
  cJSON* array = cJSON_CreateArray();
  for (uint32_t i = 0; i < capture->kernel_count; ++i) {
    const rl_capture_kernel_t* kernel = &capture->kernels[i];
    cJSON* object = cJSON_CreateObject();
    cJSON_AddStringToObject(object, "name", kernel->name);
    cJSON_AddNumberToObject(object, "code_object", kernel->code_object);
    cJSON_AddNumberToObject(object, "kernarg_size", kernel->info->kernarg_size);
    cJSON_AddNumberToObject(object, "group_segment_size",
                            kernel->info->group_segment_size);
    cJSON_AddNumberToObject(object, "private_segment_size",
                            kernel->info->private_segment_size);
    cJSON_AddItemToArray(array, object);
  }
  return array;
}

static cJSON* rl_json_buffers(const rl_capture_t* capture) {
  cJSON* array = cJSON_CreateArray();
  for (uint32_t i = 0; i < capture->buffer_count; ++i) {
    const rl_capture_buffer_t* b = &capture->buffers[i];
    cJSON* object = cJSON_CreateObject();
    cJSON_AddNumberToObject(object, "id", i);
    cJSON_AddStringToObject(object, "name", b->name);
    cJSON_AddStringToObject(object, "role", rl_buffer_role_name(b->role));
    cJSON_AddNumberToObject(object, "size", (double)b->size);
    cJSON_AddNumberToObject(object, "alignment", (double)b->alignment);
    char address[24];
    snprintf(address, sizeof(address), "0x%llx",
             (unsigned long long)b->capture_address);
    cJSON_AddStringToObject(object, "capture_address", address);
    cJSON_AddBoolToObject(object, "keep_address", b->keep_address);
    cJSON_AddBoolToObject(object, "has_contents", b->initial != NULL);
    if (rl_capture_buffer_is_variable(b)) {
      cJSON* variable = cJSON_AddObjectToObject(object, "variable");
      cJSON_AddNumberToObject(variable, "code_object", b->code_object);
      cJSON_AddStringToObject(variable, "symbol", b->symbol);
      cJSON_AddNumberToObject(variable, "offset", (double)b->symbol_offset);
    }
    cJSON_AddItemToArray(array, object);
  }
  return array;
}

static cJSON* rl_json_roles(const rl_capture_t* capture) {
  cJSON* object = cJSON_CreateObject();
  for (int role = 0; role < RL_BUFFER_ROLE_COUNT_; ++role) {
    double count = 0, bytes = 0;
    for (uint32_t i = 0; i < capture->buffer_count; ++i) {
      if ((int)capture->buffers[i].role != role) continue;
      count += 1;
      bytes += (double)capture->buffers[i].size;
    }
    cJSON* entry = cJSON_CreateObject();
    cJSON_AddNumberToObject(entry, "count", count);
    cJSON_AddNumberToObject(entry, "bytes", bytes);
    cJSON_AddItemToObject(object, rl_buffer_role_name((rl_buffer_role_t)role),
                          entry);
  }
  return object;
}

static cJSON* rl_json_params_and_windows(const rl_capture_t* capture,
                                         cJSON* root) {
  cJSON* params = cJSON_AddArrayToObject(root, "parameters");
  for (uint32_t i = 0; i < capture->param_count; ++i) {
    const rl_capture_param_t* p = &capture->params[i];
    cJSON* object = cJSON_CreateObject();
    cJSON_AddStringToObject(object, "name", p->name);
    cJSON_AddNumberToObject(object, "min", (double)p->min);
    cJSON_AddNumberToObject(object, "max", (double)p->max);
    cJSON_AddNumberToObject(object, "capture_value", (double)p->capture_value);
    cJSON_AddItemToArray(params, object);
  }
  cJSON* windows = cJSON_AddArrayToObject(root, "windows");
  for (uint32_t i = 0; i < capture->window_count; ++i) {
    const rl_capture_window_t* w = &capture->windows[i];
    cJSON* object = cJSON_CreateObject();
    cJSON_AddStringToObject(object, "param", capture->params[w->param].name);
    cJSON_AddNumberToObject(object, "start", (double)w->start);
    cJSON_AddNumberToObject(object, "count", w->count);
    cJSON_AddNumberToObject(object, "stride", (double)w->stride);
    cJSON_AddItemToArray(windows, object);
  }
  // The program's own state after each recorded step (PROGRAM_STATE).
  cJSON* states = cJSON_AddArrayToObject(root, "program_state");
  for (uint32_t i = 0; i < capture->program_state_count; ++i) {
    const rl_capture_program_state_t* state = &capture->program_states[i];
    char hex[RL_DIGEST128_HEX_LENGTH + 1];
    rl_digest128_format(state->digest, hex);
    cJSON* object = cJSON_CreateObject();
    cJSON_AddNumberToObject(object, "pos", (double)state->pos);
    cJSON_AddStringToObject(object, "region",
                            capture->regions[state->region].name);
    cJSON_AddStringToObject(object, "digest", hex);
    cJSON_AddItemToArray(states, object);
  }
  cJSON* values = cJSON_AddArrayToObject(root, "program_params");
  for (uint32_t i = 0; i < capture->program_param_count; ++i) {
    const rl_capture_program_param_t* value = &capture->program_params[i];
    cJSON* object = cJSON_CreateObject();
    cJSON_AddNumberToObject(object, "pos", (double)value->pos);
    cJSON_AddStringToObject(object, "param",
                            capture->params[value->param].name);
    cJSON_AddNumberToObject(object, "value", (double)value->value);
    cJSON_AddItemToArray(values, object);
  }
  cJSON* bindings = cJSON_AddArrayToObject(root, "bindings");
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    const rl_capture_launch_t* launch = &capture->launches[l];
    for (uint32_t b = 0; b < launch->binding_count; ++b) {
      cJSON_AddItemToArray(bindings,
                           rl_json_binding(capture, l, &launch->bindings[b]));
    }
  }
  return root;
}

static cJSON* rl_json_regions(const rl_capture_t* capture) {
  cJSON* array = cJSON_CreateArray();
  for (uint32_t i = 0; i < capture->region_count; ++i) {
    const rl_capture_region_t* r = &capture->regions[i];
    cJSON* object = cJSON_CreateObject();
    cJSON_AddStringToObject(object, "name", r->name);
    cJSON_AddStringToObject(object, "buffer", capture->buffers[r->buffer].name);
    cJSON_AddNumberToObject(object, "offset", (double)r->offset);
    cJSON_AddNumberToObject(object, "size", (double)r->size);
    cJSON_AddStringToObject(object, "type", rl_region_type_name(r->type));
    cJSON_AddItemToArray(array, object);
  }
  return array;
}

static cJSON* rl_json_hazards(const rl_capture_t* capture,
                              const rl_hazard_plan_t* plan) {
  cJSON* object = cJSON_CreateObject();
  cJSON_AddNumberToObject(object, "waits", plan->wait_count);
  cJSON_AddNumberToObject(object, "boundaries",
                          capture->launch_count ? capture->launch_count - 1 : 0);
  cJSON* before = cJSON_AddArrayToObject(object, "wait_before");
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    if (!plan->boundaries[l].needs_wait) continue;
    cJSON* entry = cJSON_CreateObject();
    char reason[256];
    rl_inspect_format_reason(capture, &plan->boundaries[l].reason, reason,
                               sizeof(reason));
    cJSON_AddNumberToObject(entry, "launch", l);
    cJSON_AddStringToObject(entry, "reason", reason);
    cJSON_AddItemToArray(before, entry);
  }
  return object;
}

static cJSON* rl_json_slot(const rl_capture_t* capture,
                           const rl_pointer_slot_t* slot) {
  cJSON* object = cJSON_CreateObject();
  cJSON_AddNumberToObject(object, "kernarg_offset", slot->kernarg_offset);
  cJSON_AddStringToObject(object, "buffer", capture->buffers[slot->buffer].name);
  cJSON_AddNumberToObject(object, "offset", (double)slot->offset);
  cJSON_AddStringToObject(object, "effect", rl_effect_name(slot->effect));
  cJSON_AddStringToObject(object, "source", rl_effect_source_name(slot->source));
  cJSON_AddNumberToObject(object, "extent_offset", (double)slot->extent_offset);
  cJSON_AddNumberToObject(object, "extent_size", (double)slot->extent_size);
  return object;
}

static cJSON* rl_json_launches(const rl_capture_t* capture,
                               const rl_hazard_plan_t* plan) {
  cJSON* array = cJSON_CreateArray();
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    const rl_capture_launch_t* launch = &capture->launches[l];
    cJSON* object = cJSON_CreateObject();
    cJSON_AddNumberToObject(object, "index", l);
    cJSON_AddStringToObject(object, "kernel",
                            capture->kernels[launch->kernel].name);
    cJSON_AddItemToObject(object, "grid", rl_json_u32_array(launch->grid, 3));
    cJSON_AddItemToObject(object, "block", rl_json_u32_array(launch->block, 3));
    cJSON_AddNumberToObject(object, "dynamic_lds", launch->dynamic_lds);
    cJSON_AddNumberToObject(object, "kernarg_size", launch->kernarg_size);
    cJSON_AddBoolToObject(object, "wait_before",
                          plan->boundaries[l].needs_wait);
    cJSON* slots = cJSON_AddArrayToObject(object, "slots");
    for (uint32_t s = 0; s < launch->slot_count; ++s) {
      cJSON_AddItemToArray(slots, rl_json_slot(capture, &launch->slots[s]));
    }
    cJSON* bindings = cJSON_AddArrayToObject(object, "bindings");
    for (uint32_t b = 0; b < launch->binding_count; ++b) {
      cJSON_AddItemToArray(bindings,
                           rl_json_binding(capture, l, &launch->bindings[b]));
    }
    cJSON_AddItemToArray(array, object);
  }
  return array;
}

cJSON* rl_inspect_json(const rl_capture_t* capture,
                       const rl_digest128_t* identity,
                       const rl_hazard_plan_t* plan, bool with_launches) {
  cJSON* root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "workload", capture->workload);
  cJSON_AddStringToObject(root, "target",
                          capture->target ? capture->target : "");
  rl_json_add_digest(root, "identity", *identity);
  cJSON_AddNumberToObject(root, "launch_count", capture->launch_count);
  cJSON_AddItemToObject(root, "code_objects", rl_json_code(capture));
  cJSON_AddItemToObject(root, "kernels", rl_json_kernels(capture));
  cJSON_AddItemToObject(root, "buffers", rl_json_buffers(capture));
  cJSON_AddItemToObject(root, "buffers_by_role", rl_json_roles(capture));
  rl_json_params_and_windows(capture, root);
  cJSON_AddItemToObject(root, "regions", rl_json_regions(capture));
  cJSON_AddItemToObject(root, "hazard_plan", rl_json_hazards(capture, plan));
  if (with_launches) {
    cJSON_AddItemToObject(root, "launches", rl_json_launches(capture, plan));
  }
  return root;
}
