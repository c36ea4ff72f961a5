// The verify part of `redline demo` (tools/demo_verify.h).
#include "tools/demo_verify.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include <stdlib.h>
#include <string.h>

#include "kernels/workloads/verify.h"
#include "kernels/workloads/verify_route.h"
#include "redline/funnel.h"
#include "redline/replay.h"
#include "shadow/verify_serve.h"
#include "tools/cli.h"

uint32_t rl_demo_verify_config(uint64_t layers,
                               rl_workload_param_value_t* out) {
  out[0] = (rl_workload_param_value_t){"layers", (int64_t)layers};
  out[1] = (rl_workload_param_value_t){"max_context",
                                       RL_DEMO_VERIFY_MAX_CONTEXT};
  out[2] = (rl_workload_param_value_t){"crossover", RL_DEMO_VERIFY_CROSSOVER};
  return 3;
}

// Prints one served step: the path, why when eager, and tau.
static rl_status_t rl_demo_verify_serve_step(rl_verify_server_t* server,
                                             uint32_t accept_region,
                                             uint32_t batch, int64_t pos,
                                             bool* out_retained) {
  rl_verify_decision_t decision;
  RL_RETURN_IF_ERROR(rl_verify_serve_step(server, batch, pos, &decision));
  uint32_t accept[4] = {0};
  RL_RETURN_IF_ERROR(rl_verify_serve_read_region(server, accept_region,
                                                 accept, sizeof(accept)));
  printf("serve      pos=%-5" PRId64 " %-8s tau=%-2u head %u -> %u%s%s%s\n",
         pos, decision.retained ? "retained" : "eager", accept[0], accept[1],
         accept[2], decision.retained ? "" : "  (", decision.reason,
         decision.retained ? "" : ")");
  *out_retained = decision.retained;
  return RL_OK;
}

// The serving loop (shadow/verify_serve.h) on one simulated device: the
// capture's 12 windows (retained, tau from the exact acceptance), then
// steps across the crossover from below (eager, then retained).
static rl_status_t rl_demo_verify_serve(const rl_capture_t* capture,
                                        const rl_verify_envelope_t* envelope,
                                        const char* processor,
                                        const char* executor) {
  uint32_t accept_region = 0;
  bool found = false;
  for (uint32_t r = 0; r < capture->region_count; ++r) {
    if (strcmp(capture->regions[r].name, "accept") == 0) {
      accept_region = r;
      found = true;
    }
  }
  if (!found || capture->regions[accept_region].size != 16 ||
      capture->window_count < 1) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "verify capture without its accept region or window");
  }
  const rl_device_options_t device_options = {
      .kind = "sim", .processor = processor, .executor = executor};
  rl_device_t* device = NULL;
  RL_RETURN_IF_ERROR(rl_device_open(&device_options, &device));
  const rl_verify_serve_options_t options = {.route = RL_ROUTE_PM4};
  rl_verify_server_t* server = NULL;
  rl_status_t status =
      rl_verify_serve_create(device, capture, &options, &server);
  const rl_capture_window_t* window = &capture->windows[0];
  const uint32_t B = envelope->batch;
  uint32_t full = 0, partial = 0, eager = 0;
  for (uint32_t w = 0; !status && w < window->count; ++w) {
    bool retained = false;
    status = rl_demo_verify_serve_step(server, accept_region, B,
                                       window->start + (int64_t)w *
                                                           window->stride,
                                       &retained);
    uint32_t accept[4] = {0};
    if (!status) {
      status = rl_verify_serve_read_region(server, accept_region, accept,
                                           sizeof(accept));
    }
    if (!status) {
      full += accept[0] == B;
      partial += accept[0] > 0 && accept[0] < B;
    }
  }
  // Across the crossover: live context below it, at it, just above it.
  const int64_t crossing[3] = {(int64_t)envelope->crossover - 2 * B,
                               (int64_t)envelope->crossover - B,
                               (int64_t)envelope->crossover - B + 1};
  for (uint32_t i = 0; !status && i < 3; ++i) {
    bool retained = false;
    status = rl_demo_verify_serve_step(server, accept_region, B, crossing[i],
                                       &retained);
    if (!status && retained != (i == 2)) {
      status = RL_STATUS(RL_STATUS_MISMATCH,
                         "served step at pos %" PRId64 " ran %s", crossing[i],
                         retained ? "retained" : "eager");
    }
    eager += !retained;
  }
  if (!status) {
    uint64_t retained_steps = 0, eager_steps = 0;
    rl_verify_serve_counts(server, &retained_steps, &eager_steps);
    printf("served     %" PRIu64 " steps retained, %" PRIu64
           " eager; tau = B in %u windows, 0 < tau < B in %u\n",
           retained_steps, eager_steps, full, partial);
    if (!full || !partial || eager_steps != eager) {
      status = RL_STATUS(RL_STATUS_MISMATCH,
                         "the window should show both tau = B and 0 < tau < "
                         "B (%u, %u)", full, partial);
    }
  }
  rl_verify_serve_destroy(server);
  rl_device_close(device);
  return status;
}

rl_status_t rl_demo_verify_route(const rl_capture_t* capture,
                                 const char* processor, const char* executor) {
  rl_verify_envelope_t envelope;
  RL_RETURN_IF_ERROR(rl_verify_envelope_of(capture, &envelope));
  printf("envelope   %s, B=%u, S=%u, live context in (%u, %u], partials "
         ">= %" PRIu64 " bytes\n",
         envelope.target, envelope.batch, envelope.chunks, envelope.crossover,
         envelope.max_context, envelope.workspace_bytes);
  const uint32_t B = envelope.batch;
  const struct {
    uint32_t batch;
    int64_t pos;
    bool route_off;
    bool retained;
  } steps[] = {
      {B, (int64_t)envelope.crossover - B + 1, false, true},
      {B, (int64_t)envelope.crossover - B, false, false},
      {B, (int64_t)envelope.max_context - B + 1, false, false},
      {B / 2 < 4 ? 33 : B / 2, (int64_t)envelope.crossover + 64, false, false},
      {3, (int64_t)envelope.crossover + 64, false, false},
      {B, (int64_t)envelope.crossover + 64, true, false},
  };
  for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); ++i) {
    const rl_verify_route_options_t options = {steps[i].route_off, 0};
    const rl_verify_step_t step = {envelope.target, steps[i].batch,
                                   steps[i].pos, envelope.workspace_bytes};
    rl_verify_decision_t decision;
    RL_RETURN_IF_ERROR(rl_verify_decide(&envelope, &options, &step,
                                        &decision));
    printf("step       B=%-2u pos=%-5" PRId64 "%s -> %s%s%s\n", step.batch,
           step.pos, steps[i].route_off ? " route=off" : "",
           decision.retained ? "retained" : "eager",
           decision.retained ? "" : ": ", decision.reason);
    if (decision.retained != steps[i].retained) {
      return RL_STATUS(RL_STATUS_MISMATCH,
                       "route decision for B=%u pos=%" PRId64 " is %s",
                       step.batch, step.pos,
                       decision.retained ? "retained" : "eager");
    }
  }
  const rl_verify_step_t small = {envelope.target, B,
                                  (int64_t)envelope.crossover + 64,
                                  envelope.workspace_bytes - 4};
  rl_verify_decision_t decision;
  rl_status_t status = rl_verify_decide(&envelope, NULL, &small, &decision);
  if (!status) {
    return RL_STATUS(RL_STATUS_MISMATCH,
                     "an undersized workspace was not refused");
  }
  printf("step       workspace %" PRIu64 " bytes -> contract: %s\n",
         small.workspace_bytes, rl_status_message(status));
  rl_status_free(status);
  return rl_demo_verify_serve(capture, &envelope, processor, executor);
}
