// The verify route's envelope and per-step decision
// (kernels/workloads/verify_route.h).
#include "kernels/workloads/verify_route.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/workloads/verify.h"

static const rl_verify_dims_t rl_vr_default_dims = RL_VERIFY_DIMS_DEFAULT;

rl_status_t rl_verify_envelope_of(const rl_capture_t* capture,
                                  rl_verify_envelope_t* out) {
  if (!capture || !out) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "verify envelope: NULL");
  }
  memset(out, 0, sizeof(*out));
  uint32_t tokens = 0, rope = 0;
  if (!capture->workload || strcmp(capture->workload, "verify") != 0 ||
      capture->param_count != 1 ||
      strcmp(capture->params[0].name, "pos") != 0 ||
      !rl_capture_find_buffer(capture, "tokens", &tokens) ||
      !rl_capture_find_buffer(capture, "rope", &rope)) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "verify envelope: the capture of workload %s is not a "
                     "verify step (parameter pos, buffers tokens and rope)",
                     capture->workload ? capture->workload : "(none)");
  }
  const rl_verify_dims_t* d = &rl_vr_default_dims;
  snprintf(out->target, sizeof(out->target), "%s",
           capture->target ? capture->target : "");
  out->batch = (uint32_t)(capture->buffers[tokens].size / 4);
  out->chunks = d->chunks;
  out->max_context = (uint32_t)(capture->buffers[rope].size /
                                (d->head_dim * 4u));
  const int64_t crossover = capture->params[0].min + out->batch - 1;
  out->crossover = crossover < 0 ? 0 : (uint32_t)crossover;
  out->workspace_bytes =
      (uint64_t)out->batch * d->heads * d->chunks * (d->head_dim + 2) * 4;
  return RL_OK;
}

rl_status_t rl_verify_check_workspace(const rl_verify_envelope_t* envelope,
                                      uint64_t workspace_bytes) {
  if (workspace_bytes >= envelope->workspace_bytes) return RL_OK;
  return RL_STATUS(RL_STATUS_CONTRACT,
                   "verify: partials workspace of %" PRIu64 " bytes, S = %u "
                   "at B = %u needs %" PRIu64 " bytes",
                   workspace_bytes, envelope->chunks, envelope->batch,
                   envelope->workspace_bytes);
}

static rl_status_t rl_vr_eager(rl_verify_decision_t* out, const char* format,
                               ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(out->reason, sizeof(out->reason), format, args);
  va_end(args);
  out->retained = false;
  return RL_OK;
}

rl_status_t rl_verify_decide(const rl_verify_envelope_t* envelope,
                             const rl_verify_route_options_t* options,
                             const rl_verify_step_t* step,
                             rl_verify_decision_t* out) {
  if (!envelope || !step || !out) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "verify decide: NULL");
  }
  memset(out, 0, sizeof(*out));
  RL_RETURN_IF_ERROR(rl_verify_check_workspace(envelope,
                                               step->workspace_bytes));
  if (options && options->route_off) {
    return rl_vr_eager(out, "route disabled by the workload option "
                            "route=off");
  }
  const char* env = getenv("REDLINE_ROUTE");
  if (env && strcmp(env, "off") == 0) {
    return rl_vr_eager(out, "REDLINE_ROUTE=off");
  }
  if (!step->target || strcmp(step->target, envelope->target) != 0) {
    return rl_vr_eager(out, "target %s, the route was captured for %s",
                       step->target ? step->target : "(none)",
                       envelope->target);
  }
  if (step->batch < RL_VERIFY_MIN_BATCH || step->batch > RL_VERIFY_MAX_BATCH) {
    return rl_vr_eager(out, "B=%u outside the admitted %u..%u", step->batch,
                       RL_VERIFY_MIN_BATCH, RL_VERIFY_MAX_BATCH);
  }
  if (step->batch != envelope->batch) {
    return rl_vr_eager(out, "B=%u, the route was captured at B=%u",
                       step->batch, envelope->batch);
  }
  uint32_t crossover = envelope->crossover;
  if (options && options->crossover > crossover) crossover = options->crossover;
  const int64_t context = step->pos + (int64_t)step->batch;
  if (step->pos < 0 || context <= (int64_t)crossover) {
    return rl_vr_eager(out, "live context %" PRId64 " is not above the "
                            "crossover %u", context, crossover);
  }
  if (context > (int64_t)envelope->max_context) {
    return rl_vr_eager(out, "rows %" PRId64 "..%" PRId64 " pass the KV "
                            "capacity of %u rows", step->pos, context - 1,
                       envelope->max_context);
  }
  out->retained = true;
  return RL_OK;
}
