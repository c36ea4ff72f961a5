// Dynamic hazard findings mapped onto a capture (shadow/hazard_verdict.h).
#include "shadow/hazard_verdict.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim/sim.h"

void rl_hazard_watch_begin(rl_hazard_watch_t* watch, rl_device_t* device,
                           const rl_capture_t* capture) {
  if (rl_dispatch_watch_begin(watch, device, capture))
    rl_sim_hazards_clear(device);
}

bool rl_hazard_watch_active(const rl_hazard_watch_t* watch) {
  return watch->device != NULL;
}

// Places [|address|, |end|) in the capture buffer that holds |address|.
static void rl_hazard_finding_place(const rl_capture_t* capture,
                                    const uint64_t* addresses,
                                    uint64_t address, uint64_t end,
                                    rl_hazard_finding_t* finding) {
  finding->buffer = UINT32_MAX;
  finding->offset = address;
  finding->end = end;
  for (uint32_t b = 0; addresses && b < capture->buffer_count; ++b) {
    uint64_t base = addresses[b];
    uint64_t size = capture->buffers[b].size;
    if (address < base || address - base >= size) continue;
    finding->buffer = b;
    finding->offset = address - base;
    finding->end = end - base < size ? end - base : size;
    return;
  }
}

uint32_t rl_hazard_watch_collect(const rl_hazard_watch_t* watch,
                                 const uint64_t* buffer_addresses,
                                 rl_hazard_finding_t* out_findings,
                                 uint32_t capacity) {
  if (!watch->device) return 0;
  rl_sim_hazard_t hazards[64];
  if (capacity > 64) capacity = 64;
  uint32_t total = rl_sim_hazards(watch->device, hazards, capacity);
  uint32_t kept = total < capacity ? total : capacity;
  uint64_t launches = watch->capture->launch_count;
  for (uint32_t i = 0; i < kept; ++i) {
    const rl_sim_hazard_t* h = &hazards[i];
    rl_hazard_finding_t* f = &out_findings[i];
    uint64_t earlier = h->earlier_dispatch - watch->base;
    uint64_t later = h->later_dispatch - watch->base;
    *f = (rl_hazard_finding_t){
        .kind = h->kind,
        .pm4 = h->ordering == RL_SIM_HAZARD_ORDERING_PM4,
        .step = launches ? later / launches : 0,
        .earlier_launch = launches ? (uint32_t)(earlier % launches) : 0,
        .later_launch = launches ? (uint32_t)(later % launches) : 0,
        .size = h->size,
        .same_dispatch = h->earlier_dispatch == h->later_dispatch,
    };
    rl_hazard_finding_place(watch->capture, buffer_addresses, h->address,
                            h->end, f);
  }
  return total;
}

static uint64_t rl_hazard_fnv(uint64_t hash, uint64_t value) {
  for (int b = 0; b < 8; ++b) {
    hash ^= (value >> (8 * b)) & 0xffu;
    hash *= 0x100000001b3ull;  // the 64-bit FNV prime
  }
  return hash;
}

uint64_t rl_hazard_watch_digest(const rl_hazard_watch_t* watch) {
  if (!watch->device) return 0;
  uint32_t total = rl_sim_hazards(watch->device, NULL, 0);
  uint32_t capacity = total < 65536u ? total : 65536u;
  rl_sim_hazard_t* hazards = calloc(capacity ? capacity : 1, sizeof(*hazards));
  if (hazards == NULL) return 0;
  rl_sim_hazards(watch->device, hazards, capacity);
  uint64_t hash = rl_hazard_fnv(0xcbf29ce484222325ull, total);
  for (uint32_t i = 0; i < capacity; ++i) {
    const rl_sim_hazard_t* h = &hazards[i];
    hash = rl_hazard_fnv(hash, h->kind);
    hash = rl_hazard_fnv(hash, h->ordering);
    hash = rl_hazard_fnv(hash, h->earlier_dispatch - watch->base);
    hash = rl_hazard_fnv(hash, h->later_dispatch - watch->base);
    hash = rl_hazard_fnv(hash, h->address);
    hash = rl_hazard_fnv(hash, h->end);
  }
  free(hazards);
  return hash;
}

const char* rl_hazard_finding_kind_name(uint32_t kind) {
  switch (kind) {
    case 1:
      return "RAW";
    case 2:
      return "WAR";
    case 3:
      return "WAW";
    case RL_HAZARD_FINDING_RAW_NO_ACQUIRE:
      return "RAW (no acquire)";
    case RL_SIM_HAZARD_STALE_READ:
      return "stale read (cache model)";
    case RL_SIM_HAZARD_STALE_HOST_READ:
      return "stale host read (cache model)";
    default:
      return "unknown";
  }
}

const char* rl_hazard_finding_missing(const rl_hazard_finding_t* finding) {
  if (finding->kind == RL_HAZARD_FINDING_RAW_NO_ACQUIRE) {
    return finding->pm4
               ? "no ACQUIRE_MEM after the wait before the later launch"
               : "the later launch's AQL packet has acquire fence scope "
                 "NONE (and no acquire since the earlier one completed)";
  }
  if (finding->kind == RL_SIM_HAZARD_STALE_READ && finding->same_dispatch) {
    return "work-groups of one launch: bytes another work-group changed at "
           "the L2 (an atomic) were read by a plain load through this WGP's "
           "cache, which no acquire between launches can order; a float or "
           "double atomicAdd on gfx11 (a compare-and-swap loop) reads this "
           "way first, benign on hardware because the compare fails and "
           "retries, but its sum depends on the order the waves add in, so "
           "it cannot be byte-exact across arms (docs/cache-model.md)";
  }
  if (finding->kind == RL_SIM_HAZARD_STALE_READ) {
    return "a cache line written by the earlier launch was read without an "
           "invalidation since (ACQUIRE_MEM GCR bits or an AQL acquire "
           "scope)";
  }
  if (finding->kind == RL_SIM_HAZARD_STALE_HOST_READ) {
    return "an L2 line the device wrote was not written back before the "
           "host read it (RELEASE_MEM GL2_WB or a system release scope)";
  }
  if (finding->pm4) {
    return "no compute-idle wait (CS_PARTIAL_FLUSH, or WAIT_REG_MEM on a "
           "RELEASE_MEM) between them";
  }
  return "no barrier bit on the later launch's AQL packet (nor a barrier "
         "packet between them)";
}

const char* rl_hazard_kernel_name(const rl_capture_t* capture,
                                  uint32_t launch) {
  if (launch >= capture->launch_count) return "?";
  return capture->kernels[capture->launches[launch].kernel].name;
}

int rl_hazard_finding_format(const rl_capture_t* capture,
                             const rl_hazard_finding_t* f, char* out,
                             size_t size) {
  char where[192];
  if (f->buffer == UINT32_MAX) {
    snprintf(where, sizeof(where), "device bytes [0x%" PRIx64 ", 0x%" PRIx64
             ")", f->offset, f->end);
  } else {
    snprintf(where, sizeof(where), "buffer %s bytes [%" PRIu64 ", %" PRIu64
             ")", capture->buffers[f->buffer].name, f->offset, f->end);
  }
  return snprintf(out, size,
                  "%s between launch %u (%s) and launch %u (%s): %s (%" PRIu64
                  " byte%s): %s",
                  rl_hazard_finding_kind_name(f->kind), f->earlier_launch,
                  rl_hazard_kernel_name(capture, f->earlier_launch),
                  f->later_launch,
                  rl_hazard_kernel_name(capture, f->later_launch), where,
                  f->size, f->size == 1 ? "" : "s",
                  rl_hazard_finding_missing(f));
}

cJSON* rl_hazard_finding_json(const rl_capture_t* capture,
                              const rl_hazard_finding_t* f) {
  cJSON* o = cJSON_CreateObject();
  if (!o) return NULL;
  cJSON_AddStringToObject(o, "kind", rl_hazard_finding_kind_name(f->kind));
  cJSON_AddStringToObject(o, "path", f->pm4 ? "pm4" : "aql");
  cJSON_AddNumberToObject(o, "step", (double)f->step);
  cJSON_AddNumberToObject(o, "earlier_launch", f->earlier_launch);
  cJSON_AddStringToObject(o, "earlier_kernel",
                          rl_hazard_kernel_name(capture, f->earlier_launch));
  cJSON_AddNumberToObject(o, "later_launch", f->later_launch);
  cJSON_AddStringToObject(o, "later_kernel",
                          rl_hazard_kernel_name(capture, f->later_launch));
  if (f->buffer == UINT32_MAX) {
    cJSON_AddNullToObject(o, "buffer");
  } else {
    cJSON_AddStringToObject(o, "buffer", capture->buffers[f->buffer].name);
  }
  cJSON_AddNumberToObject(o, "offset", (double)f->offset);
  cJSON_AddNumberToObject(o, "end", (double)f->end);
  cJSON_AddNumberToObject(o, "bytes", (double)f->size);
  cJSON_AddStringToObject(o, "missing", rl_hazard_finding_missing(f));
  return o;
}
