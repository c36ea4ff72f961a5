// shadow/proof_json.h — the route proof as JSON, written once: the
// "proof" object of `redline shadow --json` and `redline bench --json` (one
// an arm) and of `redline replay --json`. All three describe an
// rl_shadow_proof_t; a replay's rl_route_proof_t becomes one with
// rl_shadow_proof_from_route().
#ifndef REDLINE_SHADOW_PROOF_JSON_H_
#define REDLINE_SHADOW_PROOF_JSON_H_

#include <cjson/cJSON.h>

#include "redline/replay.h"
#include "shadow/shadow.h"

// Which command's object: the keys and their order each documents.
typedef enum rl_proof_json_form_e {
  // route, device, target, state, fallback_reason, replay_count, steps,
  // launches_issued, dispatches .. ib_dwords, rerecorded_windows,
  // rerecorded_launches, issued_checked_before_dispatch, and for hipgraph
  // instantiations and node_updates.
  RL_PROOF_JSON_SHADOW_ARM,
  // device, target, route, state, fallback_reason, replay_count,
  // dispatches .. ib_dwords.
  RL_PROOF_JSON_REPLAY,
  // route, device, target, state, replay_count, steps, dispatches, packets,
  // waits, stream_bytes, ib_dwords.
  RL_PROOF_JSON_BENCH,
} rl_proof_json_form_t;

// The shared fields of |route| into |out| (zeroed first): device, target,
// state (its name), fallback_reason, replay_count and the stream's counts.
// route, steps, launches_issued and the arm-only counts stay 0 / NULL.
void rl_shadow_proof_from_route(const rl_route_proof_t* route,
                                rl_shadow_proof_t* out);

// A new object (the caller owns it) with |proof|'s keys in |form|.
cJSON* rl_proof_json(const rl_shadow_proof_t* proof, rl_proof_json_form_t form);

#endif  // REDLINE_SHADOW_PROOF_JSON_H_
