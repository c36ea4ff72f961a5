// The effects and dispatch audits (shadow/effects_audit.h).
#include "shadow/effects_audit.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "capture/bind/launch_bind.h"
#include "sim/sim.h"

void rl_effects_watch_begin(rl_effects_watch_t* watch, rl_device_t* device,
                            const rl_capture_t* capture) {
  if (rl_dispatch_watch_begin(watch, device, capture))
    rl_sim_access_log_enable(device, true);
}

bool rl_effects_watch_active(const rl_effects_watch_t* watch) {
  return watch->device != NULL;
}

// True when |effect| includes |write| (a store) or a load.
static bool rl_effects_allows(rl_effect_t effect, bool write) {
  return write ? (effect & RL_EFFECT_WRITE) != 0
               : (effect & RL_EFFECT_READ) != 0;
}

static bool rl_effects_reaches_variable(const rl_capture_t* capture,
                                        const rl_capture_launch_t* launch,
                                        uint32_t buffer) {
  const rl_capture_buffer_t* b = &capture->buffers[buffer];
  return rl_capture_buffer_is_variable(b) &&
         capture->kernels[launch->kernel].code_object == b->code_object;
}

// The end of the declared range of |launch| on |buffer| in direction
// |write| (|any|: either direction) that holds byte |at|, or |at| when
// none does. Variable buffers of the kernel's code object are declared
// read-write whole, images the launch reads through a descriptor read
// whole.
static uint64_t rl_effects_covered_to(const rl_capture_t* capture,
                                      const rl_capture_launch_t* launch,
                                      uint32_t buffer, uint64_t at, bool write,
                                      bool any) {
  if (rl_effects_reaches_variable(capture, launch, buffer) ||
      ((any || !write) &&
       rl_capture_launch_reads_image(capture, launch, buffer))) {
    return capture->buffers[buffer].size;
  }
  uint64_t best = at;
  for (uint32_t s = 0; s < launch->slot_count; ++s) {
    const rl_pointer_slot_t* slot = &launch->slots[s];
    if (slot->buffer != buffer) continue;
    if (!any && !rl_effects_allows(slot->effect, write)) continue;
    if (any && slot->effect == RL_EFFECT_NONE) continue;
    uint64_t end = slot->extent_offset + slot->extent_size;
    if (at >= slot->extent_offset && at < end && end > best) best = end;
  }
  return best;
}

static bool rl_effects_declares_buffer(const rl_capture_t* capture,
                                       const rl_capture_launch_t* launch,
                                       uint32_t buffer, bool write) {
  if (rl_effects_reaches_variable(capture, launch, buffer)) return true;
  if (!write && rl_capture_launch_reads_image(capture, launch, buffer)) {
    return true;
  }
  for (uint32_t s = 0; s < launch->slot_count; ++s) {
    if (launch->slots[s].buffer == buffer &&
        rl_effects_allows(launch->slots[s].effect, write)) {
      return true;
    }
  }
  return false;
}

typedef struct rl_effects_step_s {
  const rl_capture_t* capture;
  const uint64_t* addresses;
  const char* where;
  uint64_t step;
  uint32_t launch;
  rl_effects_audit_t* audit;
} rl_effects_step_t;

// Records a violation on bytes [from, to) of |buffer|.
static void rl_effects_violation(const rl_effects_step_t* at, uint32_t buffer,
                                 uint64_t from, uint64_t to, bool write) {
  rl_effects_audit_t* audit = at->audit;
  if (audit->violations++ > 0) return;
  const rl_capture_t* capture = at->capture;
  const rl_capture_launch_t* launch = &capture->launches[at->launch];
  const char* why;
  if (!rl_effects_declares_buffer(capture, launch, buffer, write) &&
      !rl_effects_declares_buffer(capture, launch, buffer, !write)) {
    why = "no pointer slot of the launch declares an effect on this buffer";
  } else if (rl_effects_covered_to(capture, launch, buffer, from, !write,
                                   false) > from) {
    why = write ? "a write where only a read was declared"
                : "a read where only a write was declared";
  } else {
    why = "outside the declared extent";
  }
  snprintf(audit->first, sizeof(audit->first),
           "%s, step %" PRIu64 ": launch %u (%s) %s buffer %s bytes [%" PRIu64
           ", %" PRIu64 "): %s",
           at->where, at->step, at->launch,
           capture->kernels[launch->kernel].name,
           write ? "wrote" : "read", capture->buffers[buffer].name, from, to,
           why);
}

// Audits one observed range [begin, end) of direction |write|.
static void rl_effects_range(const rl_effects_step_t* at, uint64_t begin,
                             uint64_t end, bool write) {
  const rl_capture_t* capture = at->capture;
  const rl_capture_launch_t* launch = &capture->launches[at->launch];
  for (uint32_t b = 0; b < capture->buffer_count; ++b) {
    uint64_t base = at->addresses[b];
    uint64_t size = capture->buffers[b].size;
    if (base == 0 || end <= base || begin >= base + size) continue;
    uint64_t from = (begin > base ? begin : base) - base;
    uint64_t to = (end < base + size ? end : base + size) - base;
    uint64_t pos = from;
    while (pos < to) {
      uint64_t next =
          rl_effects_covered_to(capture, launch, b, pos, write, false);
      if (next > pos) {
        pos = next;
        continue;
      }
      // The uncovered run: up to the next covered byte or |to|.
      uint64_t stop = pos + 1;
      while (stop < to &&
             rl_effects_covered_to(capture, launch, b, stop, write, false) ==
                 stop) {
        ++stop;
        if (stop - pos >= 4096) {  // long enough to name; skip the rest
          stop = to;
          break;
        }
      }
      rl_effects_violation(at, b, pos, stop, write);
      pos = stop;
    }
  }
}

// True when any range of |ranges| meets [begin, end).
static bool rl_effects_touched(const rl_sim_access_range_t* ranges,
                               uint32_t count, uint64_t begin, uint64_t end) {
  for (uint32_t i = 0; i < count; ++i) {
    if (ranges[i].begin < end && ranges[i].end > begin) return true;
  }
  return false;
}

static void rl_effects_untouched(const rl_effects_step_t* at,
                                 const rl_sim_access_record_t* record) {
  const rl_capture_t* capture = at->capture;
  const rl_capture_launch_t* launch = &capture->launches[at->launch];
  for (uint32_t s = 0; s < launch->slot_count; ++s) {
    const rl_pointer_slot_t* slot = &launch->slots[s];
    if (slot->effect == RL_EFFECT_NONE || slot->extent_size == 0) continue;
    uint64_t begin = at->addresses[slot->buffer] + slot->extent_offset;
    uint64_t end = begin + slot->extent_size;
    if (rl_effects_touched(record->reads, record->read_count, begin, end) ||
        rl_effects_touched(record->writes, record->write_count, begin, end)) {
      continue;
    }
    if (at->audit->untouched++ > 0) continue;
    snprintf(at->audit->first_untouched, sizeof(at->audit->first_untouched),
             "%s, step %" PRIu64 ": launch %u (%s) slot at kernarg offset "
             "%u (buffer %s, %s) was not touched",
             at->where, at->step, at->launch,
             capture->kernels[launch->kernel].name, slot->kernarg_offset,
             capture->buffers[slot->buffer].name, rl_effect_name(slot->effect));
  }
}

static void rl_effects_dispatch_violation(const rl_effects_step_t* at,
                                          const char* what, int axis,
                                          uint64_t ran, uint64_t expected) {
  rl_effects_audit_t* audit = at->audit;
  if (audit->dispatch_violations++ > 0) return;
  const rl_capture_t* capture = at->capture;
  snprintf(audit->first_dispatch, sizeof(audit->first_dispatch),
           "%s, step %" PRIu64 ": launch %u (%s) %s%s%s: the simulator ran %"
           PRIu64 ", the launch has %" PRIu64,
           at->where, at->step, at->launch,
           capture->kernels[capture->launches[at->launch].kernel].name, what,
           axis >= 0 ? " on axis " : "",
           axis == 0 ? "x" : axis == 1 ? "y" : axis == 2 ? "z" : "", ran,
           expected);
}

// The dispatch audit of |record| against the launch bound at |values|.
static void rl_effects_geometry(const rl_effects_step_t* at,
                                const rl_sim_access_record_t* record,
                                const int64_t* values) {
  const rl_capture_t* capture = at->capture;
  const rl_capture_launch_t* launch = &capture->launches[at->launch];
  uint8_t* kernarg = malloc(launch->kernarg_size ? launch->kernarg_size : 1);
  uint32_t grid[3] = {0, 0, 0};
  rl_status_t status = kernarg ? rl_launch_bind(capture, at->launch, values,
                                                at->addresses, kernarg, grid)
                               : rl_status_out_of_memory();
  free(kernarg);
  if (status) {  // the arm bound it already: a failure there is reported
    rl_status_free(status);
    return;
  }
  uint64_t groups = 1;
  for (int axis = 0; axis < 3; ++axis) {
    groups *= grid[axis];
    if (record->workgroup_size[axis] != launch->block[axis]) {
      rl_effects_dispatch_violation(at, "work-group size", axis,
                                    record->workgroup_size[axis],
                                    launch->block[axis]);
    }
    uint64_t items = (uint64_t)grid[axis] * launch->block[axis];
    if (record->grid_size[axis] != items) {
      rl_effects_dispatch_violation(at, "grid (work-items)", axis,
                                    record->grid_size[axis], items);
    }
    if (record->workgroup_count[axis] != grid[axis]) {
      rl_effects_dispatch_violation(at, "work-groups", axis,
                                    record->workgroup_count[axis], grid[axis]);
    }
  }
  if (record->workgroups_run != groups) {
    rl_effects_dispatch_violation(at, "work-groups run", -1,
                                  record->workgroups_run, groups);
  }
}

uint32_t rl_effects_watch_end(rl_effects_watch_t* watch,
                              const int64_t* values,
                              const uint64_t* buffer_addresses,
                              const char* where, rl_effects_audit_t* audit) {
  if (!watch->device) return 0;
  rl_sim_access_record_t* records = NULL;
  uint32_t total = 0;
  uint32_t count = rl_sim_access_log_take(watch->device, &records, &total);
  rl_sim_access_log_enable(watch->device, false);
  uint32_t before = audit->violations + audit->dispatch_violations;
  audit->lost += total - count;
  const rl_capture_t* capture = watch->capture;
  uint64_t launches = capture->launch_count;
  for (uint32_t i = 0; launches && buffer_addresses && i < count; ++i) {
    const rl_sim_access_record_t* record = &records[i];
    if (record->dispatch_index < watch->base) continue;
    uint64_t d = record->dispatch_index - watch->base;
    rl_effects_step_t at = {
        .capture = capture,
        .addresses = buffer_addresses,
        .where = where,
        .step = d / launches,
        .launch = (uint32_t)(d % launches),
        .audit = audit,
    };
    audit->dispatches++;
    for (uint32_t r = 0; r < record->read_count; ++r) {
      rl_effects_range(&at, record->reads[r].begin, record->reads[r].end,
                       false);
    }
    for (uint32_t r = 0; r < record->write_count; ++r) {
      rl_effects_range(&at, record->writes[r].begin, record->writes[r].end,
                       true);
    }
    rl_effects_untouched(&at, record);
    rl_effects_geometry(&at, record, values);
  }
  rl_sim_access_log_free(records, count);
  watch->device = NULL;
  return audit->violations + audit->dispatch_violations - before;
}
