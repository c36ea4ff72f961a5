// shadow/proof_json.c — see proof_json.h.
#include "shadow/proof_json.h"

#include <stdio.h>
#include <string.h>

void rl_shadow_proof_from_route(const rl_route_proof_t* route,
                                rl_shadow_proof_t* out) {
  memset(out, 0, sizeof(*out));
  snprintf(out->device, sizeof(out->device), "%s",
           route->device ? route->device : "");
  snprintf(out->target, sizeof(out->target), "%s",
           route->target ? route->target : "");
  out->state = rl_replay_state_name(route->state);
  snprintf(out->fallback_reason, sizeof(out->fallback_reason), "%s",
           route->fallback_reason);
  out->replay_count = route->replay_count;
  out->dispatches = route->dispatches;
  out->packets = route->packets;
  out->waits = route->waits;
  out->queue_id = route->queue_id;
  out->stream_bytes = route->stream_bytes;
  out->patch_sites = route->patch_sites;
  out->ib_dwords = route->ib_dwords;
}

cJSON* rl_proof_json(const rl_shadow_proof_t* p, rl_proof_json_form_t form) {
  const bool arm = form == RL_PROOF_JSON_SHADOW_ARM;
  const bool replay = form == RL_PROOF_JSON_REPLAY;
  const bool bench = form == RL_PROOF_JSON_BENCH;
  const char* route = p->route ? p->route : "";
  cJSON* o = cJSON_CreateObject();
  if (!replay) cJSON_AddStringToObject(o, "route", route);
  cJSON_AddStringToObject(o, "device", p->device);
  cJSON_AddStringToObject(o, "target", p->target);
  if (replay) cJSON_AddStringToObject(o, "route", route);
  cJSON_AddStringToObject(o, "state", p->state ? p->state : "");
  if (!bench) {
    cJSON_AddStringToObject(o, "fallback_reason", p->fallback_reason);
  }
  cJSON_AddNumberToObject(o, "replay_count", (double)p->replay_count);
  if (!replay) cJSON_AddNumberToObject(o, "steps", (double)p->steps);
  if (arm) {
    cJSON_AddNumberToObject(o, "launches_issued", (double)p->launches_issued);
  }
  cJSON_AddNumberToObject(o, "dispatches", p->dispatches);
  cJSON_AddNumberToObject(o, "packets", p->packets);
  cJSON_AddNumberToObject(o, "waits", p->waits);
  if (!bench) cJSON_AddNumberToObject(o, "queue_id", p->queue_id);
  cJSON_AddNumberToObject(o, "stream_bytes", (double)p->stream_bytes);
  if (!bench) cJSON_AddNumberToObject(o, "patch_sites", p->patch_sites);
  cJSON_AddNumberToObject(o, "ib_dwords", p->ib_dwords);
  if (!arm) return o;
  cJSON_AddNumberToObject(o, "rerecorded_windows",
                          (double)p->rerecorded_windows);
  cJSON_AddNumberToObject(o, "rerecorded_launches",
                          (double)p->rerecorded_launches);
  cJSON_AddNumberToObject(o, "issued_checked_before_dispatch",
                          (double)p->issued_checked);
  if (p->instantiations) {  // hipgraph
    cJSON_AddNumberToObject(o, "instantiations", (double)p->instantiations);
    cJSON_AddNumberToObject(o, "node_updates", (double)p->node_updates);
  }
  return o;
}
