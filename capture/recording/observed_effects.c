// Observed pointer effects (capture/recording/observed_effects.h).
#include "capture/recording/observed_effects.h"

// What one launch was observed to do in one buffer.
typedef struct rl_observed_buffer_s {
  bool read, write;
  bool any;
  uint64_t begin, end;  // hull of the touched bytes, buffer offsets
} rl_observed_buffer_t;

// Adds the parts of |ranges| inside [base, base + size) to |out|'s hull;
// true when one lies there.
static bool rl_observed_clip(const rl_hip_observed_range_t* ranges,
                             uint32_t count, uint64_t base, uint64_t size,
                             rl_observed_buffer_t* out) {
  bool touched = false;
  for (uint32_t i = 0; i < count; ++i) {
    uint64_t begin = ranges[i].begin, end = ranges[i].end;
    if (end <= base || begin >= base + size || begin >= end) continue;
    uint64_t from = (begin > base ? begin : base) - base;
    uint64_t to = (end < base + size ? end : base + size) - base;
    if (!out->any || from < out->begin) out->begin = from;
    if (!out->any || to > out->end) out->end = to;
    out->any = touched = true;
  }
  return touched;
}

static rl_observed_buffer_t rl_observed_in_buffer(
    const rl_capture_buffer_t* buffer, const rl_hip_observed_t* observed) {
  rl_observed_buffer_t out = {0};
  out.read = rl_observed_clip(observed->reads, observed->read_count,
                              buffer->capture_address, buffer->size, &out);
  out.write = rl_observed_clip(observed->writes, observed->write_count,
                               buffer->capture_address, buffer->size, &out);
  return out;
}

static bool rl_observed_ranges_valid(const rl_hip_observed_range_t* ranges,
                                     uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    if (ranges[i].begin > ranges[i].end) return false;
  }
  return count == 0 || ranges != NULL;
}

rl_status_t rl_observed_effects_apply(rl_capture_t* capture, uint32_t launch,
                                      const rl_hip_observed_t* observed,
                                      uint32_t* out_changed) {
  if (out_changed) *out_changed = 0;
  if (!capture || !observed || launch >= capture->launch_count) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "observed effects: launch %u of %u", launch,
                     capture ? capture->launch_count : 0);
  }
  if (!rl_observed_ranges_valid(observed->reads, observed->read_count) ||
      !rl_observed_ranges_valid(observed->writes, observed->write_count)) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "observed effects of launch %u: a range ends before it "
                     "begins", launch);
  }
  rl_capture_launch_t* l = &capture->launches[launch];
  for (uint32_t s = 0; s < l->slot_count; ++s) {
    rl_pointer_slot_t* slot = &l->slots[s];
    if (slot->source != RL_EFFECT_SOURCE_UNKNOWN) continue;
    rl_observed_buffer_t seen =
        rl_observed_in_buffer(&capture->buffers[slot->buffer], observed);
    slot->effect = (seen.read ? RL_EFFECT_READ : RL_EFFECT_NONE) |
                   (seen.write ? RL_EFFECT_WRITE : RL_EFFECT_NONE);
    slot->extent_offset = slot->effect ? seen.begin : slot->offset;
    slot->extent_size = slot->effect ? seen.end - seen.begin : 0;
    slot->source = RL_EFFECT_SOURCE_OBSERVED;
    if (out_changed) ++*out_changed;
  }
  return RL_OK;
}
