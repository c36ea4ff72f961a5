// `redline inspect CAPTURE [--launches] [--json] [--dot]`: describes a
// capture file. Text by default, JSON with --json, Graphviz with --dot.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redline/capture.h"
#include "redline/capture_file.h"
#include "redline/hazard.h"
#include "tools/cli.h"
#include "tools/cli_limits.h"
#include "tools/inspect_json.h"

typedef struct rl_inspect_options_s {
  const char* path;
  bool launches;
  bool json;
  bool dot;
  rl_limits_t limits;  // --max-decompressed (tools/cli_limits.h)
} rl_inspect_options_t;

static int rl_inspect_parse(int argc, char** argv, rl_inspect_options_t* out) {
  memset(out, 0, sizeof(*out));
  for (int i = 1; i < argc; ++i) {
    if (rl_cli_is(argv[i], "--launches")) {
      out->launches = true;
    } else if (rl_cli_is(argv[i], "--json")) {
      out->json = true;
    } else if (rl_cli_is(argv[i], "--dot")) {
      out->dot = true;
    } else if (rl_cli_is(argv[i], "--max-decompressed") && i + 1 < argc) {
      int exit_code = RL_EXIT_OK;
      rl_cli_limits_option("inspect", argv[i], argv[i + 1], &out->limits,
                           &exit_code);
      if (exit_code != RL_EXIT_OK) return exit_code;
      ++i;
    } else if (argv[i][0] == '-') {
      return rl_cli_usage("inspect: unknown option '%s'", argv[i]);
    } else if (out->path) {
      return rl_cli_usage("inspect: more than one capture given");
    } else {
      out->path = argv[i];
    }
  }
  if (!out->path) return rl_cli_usage("inspect: missing CAPTURE");
  if (out->json && out->dot) {
    return rl_cli_usage("inspect: --json and --dot are exclusive");
  }
  return RL_EXIT_OK;
}

static void rl_inspect_print_header(const rl_capture_t* capture,
                                    const rl_digest128_t* identity,
                                    const rl_hazard_plan_t* plan) {
  char hex[RL_DIGEST128_HEX_LENGTH + 1];
  rl_digest128_format(*identity, hex);
  printf("workload   %s\n", capture->workload);
  printf("target     %s\n", capture->target ? capture->target : "(none)");
  printf("identity   %s\n", hex);
  printf("launches   %u\n", capture->launch_count);
  // Cooperative launches (file section COOPERATIVE): replayed with all
  // their work-groups resident, on the simulator only.
  uint32_t cooperative = 0;
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    cooperative += capture->launches[l].cooperative ? 1u : 0u;
  }
  if (cooperative) {
    printf("cooperative %u launches (first: launch %u), all work-groups "
           "resident at once\n",
           cooperative, rl_capture_first_cooperative(capture));
  }
  // Descriptor bindings (file section DESCRIPTORS): image addresses
  // inside buffers (texture objects' T#s) every route patches.
  for (uint32_t i = 0; i < capture->descriptor_count; ++i) {
    const rl_capture_descriptor_t* d = &capture->descriptors[i];
    printf("descriptor %s+%llu: image %s+%llu (gfx11 T#)\n",
           capture->buffers[d->buffer].name, (unsigned long long)d->offset,
           capture->buffers[d->image].name,
           (unsigned long long)d->image_offset);
  }
  printf("waits      %u of %u boundaries (hazard plan)\n",
         plan->wait_count,
         capture->launch_count ? capture->launch_count - 1 : 0);
}

static void rl_inspect_print_code(const rl_capture_t* capture) {
  printf("\ncode objects\n");
  for (uint32_t i = 0; i < capture->code_object_count; ++i) {
    const rl_capture_code_object_t* co = &capture->code_objects[i];
    char hex[RL_DIGEST128_HEX_LENGTH + 1];
    rl_digest128_format(co->digest, hex);
    printf("  [%u] %s  %zu bytes  v%u  %u kernels\n", i, hex, co->size,
           co->parsed->code_object_version, co->parsed->kernel_count);
  }
  printf("\nkernels\n");
  for (uint32_t i = 0; i < capture->kernel_count; ++i) {
    const rl_capture_kernel_t* kernel = &capture->kernels[i];
    uint32_t uses = 0;
    for (uint32_t l = 0; l < capture->launch_count; ++l) {
      uses += capture->launches[l].kernel == i;
    }
    printf("  [%u] %-24s co %u  kernarg %u  lds %u  launches %u\n", i,
           kernel->name, kernel->code_object, kernel->info->kernarg_size,
           kernel->info->group_segment_size, uses);
  }
}

// The number of buffers of |role| and their bytes.
static uint32_t rl_inspect_role_total(const rl_capture_t* capture, int role,
                                      uint64_t* out_total) {
  uint32_t count = 0;
  *out_total = 0;
  for (uint32_t i = 0; i < capture->buffer_count; ++i) {
    if ((int)capture->buffers[i].role != role) continue;
    *out_total += capture->buffers[i].size;
    ++count;
  }
  return count;
}

static void rl_inspect_print_buffers(const rl_capture_t* capture) {
  printf("\nbuffers by role\n");
  for (int role = 0; role < RL_BUFFER_ROLE_COUNT_; ++role) {
    uint64_t total = 0;
    uint32_t count = rl_inspect_role_total(capture, role, &total);
    if (count) {
      printf("  %-9s %3u buffers  %llu bytes\n",
             rl_buffer_role_name((rl_buffer_role_t)role), count,
             (unsigned long long)total);
    }
  }
  printf("\nbuffers\n");
  for (uint32_t i = 0; i < capture->buffer_count; ++i) {
    const rl_capture_buffer_t* b = &capture->buffers[i];
    printf("  [%u] %-16s %-9s %10llu bytes  align %-5llu @0x%llx%s%s\n", i,
           b->name, rl_buffer_role_name(b->role), (unsigned long long)b->size,
           (unsigned long long)b->alignment,
           (unsigned long long)b->capture_address,
           b->keep_address ? "  keep-address" : "",
           b->initial ? "  contents" : "");
    if (rl_capture_buffer_is_variable(b)) {
      printf("      variable %s of code object %u, bytes [%llu, +%llu)\n",
             b->symbol, b->code_object, (unsigned long long)b->symbol_offset,
             (unsigned long long)b->size);
    }
  }
}

static void rl_inspect_print_params(const rl_capture_t* capture) {
  printf("\nparameters\n");
  for (uint32_t i = 0; i < capture->param_count; ++i) {
    const rl_capture_param_t* p = &capture->params[i];
    printf("  %-12s admitted [%lld, %lld)  captured at %lld\n", p->name,
           (long long)p->min, (long long)p->max, (long long)p->capture_value);
  }
  printf("\nbindings\n");
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    const rl_capture_launch_t* launch = &capture->launches[l];
    for (uint32_t b = 0; b < launch->binding_count; ++b) {
      const rl_scalar_binding_t* binding = &launch->bindings[b];
      char text[RL_CAPTURE_NAME_MAX + 64];
      rl_expr_format(capture, &binding->expr, text, sizeof(text));
      if (binding->target == RL_BINDING_GRID) {
        printf("  launch %-4u grid.%c = %s\n", l, "xyz"[binding->offset % 3],
               text);
      } else if (binding->target == RL_BINDING_POINTER_OFFSET) {
        const rl_pointer_slot_t* slot = &launch->slots[binding->offset];
        printf("  launch %-4u slot %u (kernarg[%u:%u]) offset in %s = %s\n",
               l, binding->offset, slot->kernarg_offset,
               slot->kernarg_offset + 8, capture->buffers[slot->buffer].name,
               text);
      } else {
        printf("  launch %-4u kernarg[%u:%u] = %s\n", l, binding->offset,
               binding->offset + binding->size, text);
      }
    }
  }
}

// The program's own state after each recorded step (PROGRAM_STATE,
// `redline run --verify-steps`): one line per step and region hashed.
static void rl_inspect_print_program_state(const rl_capture_t* capture) {
  if (!capture->program_state_count && !capture->program_param_count) return;
  printf("\nprogram state (XXH3-128 of each region after the step at pos; "
         "the free parameters' values at it)\n");
  for (uint32_t i = 0; i < capture->program_state_count; ++i) {
    const rl_capture_program_state_t* state = &capture->program_states[i];
    char hex[RL_DIGEST128_HEX_LENGTH + 1];
    rl_digest128_format(state->digest, hex);
    printf("  pos %-6lld %-16s %s\n", (long long)state->pos,
           capture->regions[state->region].name, hex);
  }
  for (uint32_t i = 0; i < capture->program_param_count; ++i) {
    const rl_capture_program_param_t* value = &capture->program_params[i];
    printf("  pos %-6lld %s = %lld\n", (long long)value->pos,
           capture->params[value->param].name, (long long)value->value);
  }
}

static void rl_inspect_print_regions(const rl_capture_t* capture) {
  printf("\nstate regions\n");
  for (uint32_t i = 0; i < capture->region_count; ++i) {
    const rl_capture_region_t* r = &capture->regions[i];
    printf("  %-16s %s[%llu, +%llu)  %s\n", r->name,
           capture->buffers[r->buffer].name, (unsigned long long)r->offset,
           (unsigned long long)r->size, rl_region_type_name(r->type));
  }
  printf("\nwindows\n");
  for (uint32_t i = 0; i < capture->window_count; ++i) {
    const rl_capture_window_t* w = &capture->windows[i];
    printf("  %s from %lld, %u steps, stride %lld\n",
           capture->params[w->param].name, (long long)w->start, w->count,
           (long long)w->stride);
  }
  rl_inspect_print_program_state(capture);
}

static void rl_inspect_print_launches(const rl_capture_t* capture,
                                      const rl_hazard_plan_t* plan) {
  printf("\nlaunches\n");
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    const rl_capture_launch_t* launch = &capture->launches[l];
    char reason[256] = "";
    if (plan->boundaries[l].needs_wait) {
      rl_inspect_format_reason(capture, &plan->boundaries[l].reason, reason,
                               sizeof(reason));
    }
    printf("  %s%-4u %-20s grid %ux%ux%u block %ux%ux%u%s%s\n",
           reason[0] ? "W " : "  ", l, capture->kernels[launch->kernel].name,
           launch->grid[0], launch->grid[1], launch->grid[2], launch->block[0],
           launch->block[1], launch->block[2], reason[0] ? "  wait: " : "",
           reason);
    for (uint32_t s = 0; s < launch->slot_count; ++s) {
      const rl_pointer_slot_t* slot = &launch->slots[s];
      printf("         arg@%-3u %-5s %s+%llu  extent [%llu, +%llu)  (%s)\n",
             slot->kernarg_offset, rl_effect_name(slot->effect),
             capture->buffers[slot->buffer].name,
             (unsigned long long)slot->offset,
             (unsigned long long)slot->extent_offset,
             (unsigned long long)slot->extent_size,
             rl_effect_source_name(slot->source));
    }
  }
}

static void rl_inspect_print_dot(const rl_capture_t* capture,
                                 const rl_hazard_plan_t* plan) {
  printf("digraph capture {\n  rankdir=TB;\n  node [shape=box, fontname=monospace];\n");
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    printf("  l%u [label=\"%u: %s\"%s];\n", l, l,
           capture->kernels[capture->launches[l].kernel].name,
           plan->boundaries[l].needs_wait ? ", style=bold" : "");
  }
  for (uint32_t e = 0; e < plan->edge_count; ++e) {
    const rl_hazard_edge_t* edge = &plan->edges[e];
    printf("  l%u -> l%u [label=\"%s %s\"];\n", edge->from, edge->to,
           rl_hazard_kind_name(edge->kind), capture->buffers[edge->buffer].name);
  }
  printf("}\n");
}

void rl_inspect_print_summary(const rl_capture_t* capture,
                              const rl_digest128_t* identity,
                              const rl_hazard_plan_t* plan) {
  rl_inspect_print_header(capture, identity, plan);
  rl_inspect_print_code(capture);
  rl_inspect_print_buffers(capture);
  rl_inspect_print_params(capture);
  rl_inspect_print_regions(capture);
}

void rl_inspect_print_brief(const rl_capture_t* capture,
                            const rl_digest128_t* identity,
                            const rl_hazard_plan_t* plan) {
  rl_inspect_print_header(capture, identity, plan);
  printf("kernels    %u from %u code object%s\n", capture->kernel_count,
         capture->code_object_count,
         capture->code_object_count == 1 ? "" : "s");
  printf("buffers    %u:", capture->buffer_count);
  const char* separator = " ";
  for (int role = 0; role < RL_BUFFER_ROLE_COUNT_; ++role) {
    uint64_t total = 0;
    uint32_t count = rl_inspect_role_total(capture, role, &total);
    if (!count) continue;
    printf("%s%s %u (%llu bytes)", separator,
           rl_buffer_role_name((rl_buffer_role_t)role), count,
           (unsigned long long)total);
    separator = ", ";
  }
  uint32_t bindings = 0;
  for (uint32_t l = 0; l < capture->launch_count; ++l) {
    bindings += capture->launches[l].binding_count;
  }
  printf("\nparameters");
  for (uint32_t i = 0; i < capture->param_count; ++i) {
    const rl_capture_param_t* p = &capture->params[i];
    printf("%s%s admitted [%lld, %lld) captured at %lld", i ? ", " : " ",
           p->name, (long long)p->min, (long long)p->max,
           (long long)p->capture_value);
  }
  printf("%s%u bindings\n", capture->param_count ? "; " : " ", bindings);
  printf("regions    %u:", capture->region_count);
  for (uint32_t i = 0; i < capture->region_count; ++i) {
    printf("%s%s", i ? ", " : " ", capture->regions[i].name);
  }
  printf("\n");
  for (uint32_t i = 0; i < capture->window_count; ++i) {
    const rl_capture_window_t* w = &capture->windows[i];
    printf("window     %s from %lld, %u steps, stride %lld\n",
           capture->params[w->param].name, (long long)w->start, w->count,
           (long long)w->stride);
  }
}

static int rl_inspect_run(const rl_inspect_options_t* options,
                          const rl_capture_t* capture) {
  rl_digest128_t identity;
  rl_status_t status = rl_capture_identity(capture, &identity);
  rl_hazard_plan_t* plan = NULL;
  if (!status) status = rl_hazard_plan_create(capture, &plan);
  if (status) return rl_cli_fail(status, options->path);
  int exit_code = RL_EXIT_OK;
  if (options->json) {
    exit_code = rl_cli_print_json(
        rl_inspect_json(capture, &identity, plan, options->launches));
  } else if (options->dot) {
    rl_inspect_print_dot(capture, plan);
  } else {
    rl_inspect_print_summary(capture, &identity, plan);
    if (options->launches) rl_inspect_print_launches(capture, plan);
  }
  rl_hazard_plan_destroy(plan);
  return exit_code;
}

int rl_cmd_inspect(int argc, char** argv) {
  rl_inspect_options_t options;
  int exit_code = rl_inspect_parse(argc, argv, &options);
  if (exit_code != RL_EXIT_OK) return exit_code;
  rl_capture_t* capture = NULL;
  rl_status_t status = rl_capture_file_read_limited(
      options.path, &options.limits, &capture, NULL);
  if (status) return rl_cli_fail(status, "inspect");  // names the path
  exit_code = rl_inspect_run(&options, capture);
  rl_capture_destroy(capture);
  return exit_code;
}
