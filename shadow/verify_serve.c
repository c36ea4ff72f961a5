// Verify steps in a serving loop (shadow/verify_serve.h).
#include "shadow/verify_serve.h"

#include <stdio.h>
#include <stdlib.h>

#include "shadow/shadow_direct.h"

struct rl_verify_server_s {
  const rl_capture_t* capture;
  rl_device_t* device;
  rl_verify_envelope_t envelope;
  rl_verify_route_options_t route_options;
  rl_shadow_direct_t direct;
  rl_replay_t* replay;            // NULL when the route is unavailable
  char unavailable[200];          // why, when replay is NULL
  uint64_t retained_steps;
  uint64_t eager_steps;
};

// Binds every buffer of the capture to the server's allocation and
// prepares the route; on failure records why and drops the replay.
static void rl_verify_serve_prepare(rl_verify_server_t* server,
                                    const rl_verify_serve_options_t* options) {
  const rl_capture_t* capture = server->capture;
  const rl_replay_options_t replay_options = {
      .wait_timeout_ns = options->timeout_ns};
  rl_status_t status = rl_replay_create(server->device, capture,
                                        &replay_options, &server->replay);
  for (uint32_t b = 0; !status && b < capture->buffer_count; ++b) {
    status = rl_replay_bind_buffer(server->replay, b,
                                   server->direct.addresses[b],
                                   capture->buffers[b].size);
  }
  if (!status) status = rl_replay_prepare(server->replay, options->route);
  if (!status) return;
  snprintf(server->unavailable, sizeof(server->unavailable),
           "retained route unavailable: %s", rl_status_message(status));
  rl_status_free(status);
  rl_replay_destroy(server->replay);
  server->replay = NULL;
}

rl_status_t rl_verify_serve_create(rl_device_t* device,
                                   const rl_capture_t* capture,
                                   const rl_verify_serve_options_t* options,
                                   rl_verify_server_t** out_server) {
  *out_server = NULL;
  rl_verify_server_t* server = calloc(1, sizeof(*server));
  if (!server) return rl_status_out_of_memory();
  server->capture = capture;
  server->device = device;
  server->route_options = options->route_options;
  rl_status_t status = rl_verify_envelope_of(capture, &server->envelope);
  if (!status) {
    status = rl_shadow_direct_init(&server->direct, device, capture,
                                   options->timeout_ns);
  }
  if (status) {
    free(server);
    return status;
  }
  rl_verify_serve_prepare(server, options);
  *out_server = server;
  return RL_OK;
}

static rl_status_t rl_verify_serve_eager(rl_verify_server_t* server,
                                         int64_t pos) {
  const int64_t values[1] = {pos};
  RL_RETURN_IF_ERROR(rl_shadow_direct_step(&server->direct, values));
  ++server->eager_steps;
  return RL_OK;
}

rl_status_t rl_verify_serve_step(rl_verify_server_t* server, uint32_t batch,
                                 int64_t pos, rl_verify_decision_t* out) {
  const rl_verify_step_t step = {rl_device_target(server->device), batch,
                                 pos, server->envelope.workspace_bytes};
  RL_RETURN_IF_ERROR(rl_verify_decide(&server->envelope,
                                      &server->route_options, &step, out));
  if (out->retained && !server->replay) {
    out->retained = false;
    snprintf(out->reason, sizeof(out->reason), "%s", server->unavailable);
  }
  if (out->retained) {
    const int64_t values[1] = {pos};
    RL_RETURN_IF_ERROR(rl_replay_run(server->replay, values, 1));
    ++server->retained_steps;
    return RL_OK;
  }
  if (batch != server->envelope.batch) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "verify step refused: %s; the eager path runs the "
                     "captured B %u only", out->reason,
                     server->envelope.batch);
  }
  if (pos < 0 || pos + batch > server->envelope.max_context) {
    return RL_STATUS(RL_STATUS_CONTRACT,
                     "verify step refused: %s; rows %lld..%lld are outside "
                     "the %u-row cache, so no path can run it", out->reason,
                     (long long)pos, (long long)(pos + batch - 1),
                     server->envelope.max_context);
  }
  return rl_verify_serve_eager(server, pos);
}

rl_status_t rl_verify_serve_read_region(rl_verify_server_t* server,
                                        uint32_t region, void* out_data,
                                        uint64_t size) {
  return rl_shadow_direct_read_region(&server->direct, region, out_data,
                                      size);
}

void rl_verify_serve_counts(const rl_verify_server_t* server,
                            uint64_t* out_retained, uint64_t* out_eager) {
  *out_retained = server->retained_steps;
  *out_eager = server->eager_steps;
}

void rl_verify_serve_destroy(rl_verify_server_t* server) {
  if (!server) return;
  rl_replay_destroy(server->replay);  // its queue stops first
  rl_shadow_direct_deinit(&server->direct);
  free(server);
}
