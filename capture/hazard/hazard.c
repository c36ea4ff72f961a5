// Hazard analysis over a launch sequence (redline/hazard.h). One pass over
// the launches keeps, per buffer, the accesses issued since the last wait
// (the frontier, for waits) and the newest reads and writes not covered by a
// newer access of the same direction (the history, for dependency edges).
#include "redline/hazard.h"

#include <stdlib.h>
#include <string.h>

#include "base/array.h"
#include "base/test_fault.h"

typedef struct rl_hazard_entry_s {
  uint32_t launch;  // absolute launch index
  uint64_t offset;
  uint64_t size;
  rl_effect_t effect;
} rl_hazard_entry_t;

typedef struct rl_hazard_list_s {
  rl_hazard_entry_t* items;  // oldest first
  uint32_t count;
  uint32_t capacity;
} rl_hazard_list_t;

typedef struct rl_hazard_buffer_state_s {
  rl_hazard_list_t frontier;  // since the last wait
  rl_hazard_list_t writes;    // history of writes
  rl_hazard_list_t reads;     // history of reads
} rl_hazard_buffer_state_t;

typedef struct rl_hazard_state_s {
  rl_hazard_buffer_state_t* buffers;
  uint32_t buffer_count;
  uint32_t* touched;  // buffers with a non-empty frontier
  uint32_t touched_count;
  uint32_t edge_capacity;
} rl_hazard_state_t;

const char* rl_hazard_kind_name(rl_hazard_kind_t kind) {
  switch (kind) {
    case RL_HAZARD_RAW: return "RAW";
    case RL_HAZARD_WAR: return "WAR";
    case RL_HAZARD_WAW: return "WAW";
    default: return "none";
  }
}

void rl_hazard_plan_destroy(rl_hazard_plan_t* plan) {
  if (!plan) return;
  free(plan->boundaries);
  free(plan->edges);
  free(plan);
}

static bool rl_hazard_reads(rl_effect_t effect) {
  return (effect & RL_EFFECT_READ) != 0;
}

static bool rl_hazard_writes(rl_effect_t effect) {
  return (effect & RL_EFFECT_WRITE) != 0;
}

// The conflict kind between an |earlier| and a |later| effect on
// overlapping bytes, RAW before WAW before WAR.
static rl_hazard_kind_t rl_hazard_classify(rl_effect_t earlier,
                                           rl_effect_t later) {
  if (rl_hazard_writes(earlier) && rl_hazard_reads(later)) return RL_HAZARD_RAW;
  if (rl_hazard_writes(earlier) && rl_hazard_writes(later)) return RL_HAZARD_WAW;
  if (rl_hazard_reads(earlier) && rl_hazard_writes(later)) return RL_HAZARD_WAR;
  return RL_HAZARD_NONE;
}

static bool rl_hazard_overlap(const rl_hazard_entry_t* entry,
                              const rl_hazard_access_t* access) {
  return entry->offset < access->offset + access->size &&
         access->offset < entry->offset + entry->size;
}

static rl_status_t rl_hazard_check_inputs(const rl_hazard_launch_t* launches,
                                          uint32_t launch_count,
                                          uint32_t buffer_count) {
  for (uint32_t i = 0; i < launch_count; ++i) {
    if (launches[i].access_count && !launches[i].accesses) {
      return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                       "launch %u has %u accesses but no access array", i,
                       launches[i].access_count);
    }
    for (uint32_t a = 0; a < launches[i].access_count; ++a) {
      const rl_hazard_access_t* access = &launches[i].accesses[a];
      if (access->buffer >= buffer_count ||
          (unsigned)access->effect > RL_EFFECT_READ_WRITE ||
          access->offset > UINT64_MAX - access->size) {
        return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                         "launch %u access %u: buffer %u of %u, effect %u, "
                         "range 0x%llx + %llu",
                         i, a, access->buffer, buffer_count,
                         (unsigned)access->effect,
                         (unsigned long long)access->offset,
                         (unsigned long long)access->size);
      }
    }
  }
  return RL_OK;
}

static rl_status_t rl_hazard_list_append(rl_hazard_list_t* list,
                                         const rl_hazard_entry_t* entry) {
  RL_RETURN_IF_ERROR(
      RL_ARRAY_RESERVE(&list->items, &list->capacity, list->count + 1));
  list->items[list->count++] = *entry;
  return RL_OK;
}

// Appends |entry| to a history list after dropping the entries it covers:
// any later access overlapping a covered entry also overlaps |entry|, which
// is newer, so the covered entry could never be "the most recent" again.
static rl_status_t rl_hazard_history_add(rl_hazard_list_t* list,
                                         const rl_hazard_entry_t* entry) {
  uint32_t kept = 0;
  for (uint32_t i = 0; i < list->count; ++i) {
    const rl_hazard_entry_t* old = &list->items[i];
    bool covered = old->offset >= entry->offset &&
                   old->offset + old->size <= entry->offset + entry->size;
    if (!covered) list->items[kept++] = *old;
  }
  list->count = kept;
  return rl_hazard_list_append(list, entry);
}

// The newest entry of |list| overlapping |access|, or NULL.
static const rl_hazard_entry_t* rl_hazard_list_newest_overlap(
    const rl_hazard_list_t* list, const rl_hazard_access_t* access) {
  for (uint32_t i = list->count; i > 0; --i) {
    if (rl_hazard_overlap(&list->items[i - 1], access)) {
      return &list->items[i - 1];
    }
  }
  return NULL;
}

// Finds the first conflict of |access| with the frontier of its buffer,
// newest entry first. Returns false when there is none.
// Test-only (base/test_fault.h): a plan that misses a kind of
// conflict before launch |index|.
static bool rl_hazard_fault_misses(rl_hazard_kind_t kind, uint32_t index) {
  static const char* const names[RL_HAZARD_KIND_COUNT_] = {
      [RL_HAZARD_RAW] = "miss-raw",
      [RL_HAZARD_WAR] = "miss-war",
      [RL_HAZARD_WAW] = "miss-waw"};
  return names[kind] != NULL && rl_test_fault(names[kind], index);
}

static bool rl_hazard_find_conflict(const rl_hazard_state_t* state,
                                    const rl_hazard_access_t* access,
                                    uint32_t index,
                                    rl_hazard_conflict_t* out_conflict) {
  const rl_hazard_list_t* frontier = &state->buffers[access->buffer].frontier;
  for (uint32_t i = frontier->count; i > 0; --i) {
    const rl_hazard_entry_t* entry = &frontier->items[i - 1];
    rl_hazard_kind_t kind = rl_hazard_classify(entry->effect, access->effect);
    if (kind == RL_HAZARD_NONE || !rl_hazard_overlap(entry, access)) continue;
    if (rl_hazard_fault_misses(kind, index)) continue;
    uint64_t begin = entry->offset > access->offset ? entry->offset
                                                    : access->offset;
    uint64_t end_a = entry->offset + entry->size;
    uint64_t end_b = access->offset + access->size;
    out_conflict->kind = kind;
    out_conflict->buffer = access->buffer;
    out_conflict->offset = begin;
    out_conflict->size = (end_a < end_b ? end_a : end_b) - begin;
    out_conflict->earlier = entry->launch;
    return true;
  }
  return false;
}

static bool rl_hazard_access_active(const rl_hazard_access_t* access) {
  return access->effect != RL_EFFECT_NONE && access->size != 0;
}

// Decides the boundary before |launch| (absolute index |index|), emptying
// the frontier when a wait is needed.
static void rl_hazard_plan_boundary(rl_hazard_state_t* state,
                                    const rl_hazard_launch_t* launch,
                                    uint32_t index,
                                    rl_hazard_boundary_t* out_boundary) {
  memset(out_boundary, 0, sizeof(*out_boundary));
  for (uint32_t a = 0; a < launch->access_count; ++a) {
    const rl_hazard_access_t* access = &launch->accesses[a];
    if (!rl_hazard_access_active(access)) continue;
    if (rl_hazard_find_conflict(state, access, index, &out_boundary->reason)) {
      out_boundary->needs_wait = true;
      break;
    }
  }
  if (!out_boundary->needs_wait) return;
  for (uint32_t i = 0; i < state->touched_count; ++i) {
    state->buffers[state->touched[i]].frontier.count = 0;
  }
  state->touched_count = 0;
}

// Adds an edge unless this launch already has one of the same kind and
// buffer (edges of launch |to| start at |first_edge|); the history yields
// the most recent conflicting launch, so the first edge found is kept.
static rl_status_t rl_hazard_add_edge(rl_hazard_plan_t* plan,
                                      rl_hazard_state_t* state,
                                      uint32_t first_edge,
                                      const rl_hazard_edge_t* edge) {
  for (uint32_t e = first_edge; e < plan->edge_count; ++e) {
    const rl_hazard_edge_t* other = &plan->edges[e];
    if (other->kind != edge->kind || other->buffer != edge->buffer) continue;
    if (edge->from > other->from) plan->edges[e].from = edge->from;
    return RL_OK;
  }
  RL_RETURN_IF_ERROR(RL_ARRAY_RESERVE(&plan->edges, &state->edge_capacity,
                                      plan->edge_count + 1));
  plan->edges[plan->edge_count++] = *edge;
  return RL_OK;
}

// Emits the dependency edges of one access of launch |to|.
static rl_status_t rl_hazard_access_edges(rl_hazard_plan_t* plan,
                                          rl_hazard_state_t* state,
                                          uint32_t first_edge, uint32_t to,
                                          const rl_hazard_access_t* access) {
  const rl_hazard_buffer_state_t* buffer = &state->buffers[access->buffer];
  const rl_hazard_entry_t* writer =
      rl_hazard_list_newest_overlap(&buffer->writes, access);
  const rl_hazard_entry_t* reader =
      rl_hazard_writes(access->effect)
          ? rl_hazard_list_newest_overlap(&buffer->reads, access)
          : NULL;
  rl_hazard_edge_t edge = {.to = to, .buffer = access->buffer};
  // After a write, a read-write access is named RAW only (as conflicts are).
  if (writer) {
    edge.kind = rl_hazard_classify(RL_EFFECT_WRITE, access->effect);
    edge.from = writer->launch;
    RL_RETURN_IF_ERROR(rl_hazard_add_edge(plan, state, first_edge, &edge));
  }
  if (reader) {
    edge.kind = RL_HAZARD_WAR;
    edge.from = reader->launch;
    RL_RETURN_IF_ERROR(rl_hazard_add_edge(plan, state, first_edge, &edge));
  }
  return RL_OK;
}

// Records the accesses of launch |index| in the frontier and the history.
static rl_status_t rl_hazard_record_launch(rl_hazard_state_t* state,
                                          const rl_hazard_launch_t* launch,
                                          uint32_t index) {
  for (uint32_t a = 0; a < launch->access_count; ++a) {
    const rl_hazard_access_t* access = &launch->accesses[a];
    if (!rl_hazard_access_active(access)) continue;
    rl_hazard_buffer_state_t* buffer = &state->buffers[access->buffer];
    rl_hazard_entry_t entry = {index, access->offset, access->size,
                               access->effect};
    if (buffer->frontier.count == 0) {
      state->touched[state->touched_count++] = access->buffer;
    }
    RL_RETURN_IF_ERROR(rl_hazard_list_append(&buffer->frontier, &entry));
    if (rl_hazard_writes(access->effect)) {
      RL_RETURN_IF_ERROR(rl_hazard_history_add(&buffer->writes, &entry));
    }
    if (rl_hazard_reads(access->effect)) {
      RL_RETURN_IF_ERROR(rl_hazard_history_add(&buffer->reads, &entry));
    }
  }
  return RL_OK;
}

static rl_status_t rl_hazard_plan_launch(rl_hazard_plan_t* plan,
                                         rl_hazard_state_t* state,
                                         const rl_hazard_launch_t* launch,
                                         uint32_t k) {
  uint32_t index = plan->first_launch + k;
  rl_hazard_plan_boundary(state, launch, index, &plan->boundaries[k]);
  if (plan->boundaries[k].needs_wait) ++plan->wait_count;
  uint32_t first_edge = plan->edge_count;
  for (uint32_t a = 0; a < launch->access_count; ++a) {
    const rl_hazard_access_t* access = &launch->accesses[a];
    if (!rl_hazard_access_active(access)) continue;
    RL_RETURN_IF_ERROR(
        rl_hazard_access_edges(plan, state, first_edge, index, access));
  }
  return rl_hazard_record_launch(state, launch, index);
}

static void rl_hazard_state_deinit(rl_hazard_state_t* state) {
  for (uint32_t i = 0; state->buffers && i < state->buffer_count; ++i) {
    free(state->buffers[i].frontier.items);
    free(state->buffers[i].writes.items);
    free(state->buffers[i].reads.items);
  }
  free(state->buffers);
  free(state->touched);
}

static rl_status_t rl_hazard_plan_run(const rl_hazard_launch_t* launches,
                                      rl_hazard_plan_t* plan,
                                      uint32_t buffer_count) {
  rl_hazard_state_t state = {.buffer_count = buffer_count};
  state.buffers = calloc(buffer_count ? buffer_count : 1,
                         sizeof(*state.buffers));
  state.touched = calloc(buffer_count ? buffer_count : 1,
                         sizeof(*state.touched));
  rl_status_t status = RL_OK;
  if (!state.buffers || !state.touched) status = rl_status_out_of_memory();
  for (uint32_t k = 0; !status && k < plan->launch_count; ++k) {
    status = rl_hazard_plan_launch(plan, &state, &launches[k], k);
  }
  rl_hazard_state_deinit(&state);
  return status;
}

rl_status_t rl_hazard_plan_compute(const rl_hazard_launch_t* launches,
                                   uint32_t launch_count,
                                   uint32_t buffer_count,
                                   uint32_t first_launch,
                                   rl_hazard_plan_t** out_plan) {
  if (!out_plan) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "hazard plan: no output");
  }
  *out_plan = NULL;
  if (launch_count && !launches) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "%u launches but no array",
                     launch_count);
  }
  if (launch_count > UINT32_MAX - first_launch) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "launches %u + %u overflow the launch index", first_launch,
                     launch_count);
  }
  RL_RETURN_IF_ERROR(rl_hazard_check_inputs(launches, launch_count,
                                            buffer_count));
  rl_hazard_plan_t* plan = calloc(1, sizeof(*plan));
  if (!plan) return rl_status_out_of_memory();
  plan->first_launch = first_launch;
  plan->launch_count = launch_count;
  plan->boundaries = calloc(launch_count ? launch_count : 1,
                            sizeof(*plan->boundaries));
  rl_status_t status = plan->boundaries ? RL_OK : rl_status_out_of_memory();
  if (!status) status = rl_hazard_plan_run(launches, plan, buffer_count);
  if (status) {
    rl_hazard_plan_destroy(plan);
    return status;
  }
  *out_plan = plan;
  return RL_OK;
}

// The code object variable buffers (redline/capture.h) launch |launch|'s
// kernel can reach through its code object: every launch of a kernel of a
// code object may read and write all of that code object's variables.
static bool rl_hazard_reaches_variable(const rl_capture_t* capture,
                                       const rl_capture_launch_t* launch,
                                       const rl_capture_buffer_t* buffer) {
  return rl_capture_buffer_is_variable(buffer) &&
         capture->kernels[launch->kernel].code_object == buffer->code_object;
}

// The implied accesses of |launch| beyond its slots: its code object's
// variables and the images it reads through descriptors
// (rl_capture_launch_reads_image).
static uint32_t rl_hazard_variable_count(const rl_capture_t* capture,
                                         const rl_capture_launch_t* launch) {
  uint32_t count = 0;
  for (uint32_t b = 0; b < capture->buffer_count; ++b) {
    count += rl_hazard_reaches_variable(capture, launch, &capture->buffers[b]);
    count += capture->descriptor_count &&
             rl_capture_launch_reads_image(capture, launch, b);
  }
  return count;
}

// Flattens the pointer slots of launches [first, first + count) into
// accesses, with a read-write access of every variable buffer the kernel's
// code object holds and a read of every image it reads through a
// descriptor, and builds the plan from them.
static rl_status_t rl_hazard_plan_from_slots(const rl_capture_t* capture,
                                             uint32_t first, uint32_t count,
                                             rl_hazard_launch_t* launches,
                                             rl_hazard_access_t* accesses,
                                             rl_hazard_plan_t** out_plan) {
  uint32_t used = 0;
  for (uint32_t k = 0; k < count; ++k) {
    const rl_capture_launch_t* launch = &capture->launches[first + k];
    launches[k].accesses = &accesses[used];
    launches[k].access_count =
        launch->slot_count + rl_hazard_variable_count(capture, launch);
    for (uint32_t s = 0; s < launch->slot_count; ++s) {
      const rl_pointer_slot_t* slot = &launch->slots[s];
      accesses[used++] = (rl_hazard_access_t){
          slot->buffer, slot->extent_offset, slot->extent_size, slot->effect};
    }
    for (uint32_t b = 0; b < capture->buffer_count; ++b) {
      const rl_capture_buffer_t* buffer = &capture->buffers[b];
      if (capture->descriptor_count &&
          rl_capture_launch_reads_image(capture, launch, b)) {
        accesses[used++] =
            (rl_hazard_access_t){b, 0, buffer->size, RL_EFFECT_READ};
      }
      if (!rl_hazard_reaches_variable(capture, launch, buffer)) continue;
      accesses[used++] = (rl_hazard_access_t){b, 0, buffer->size,
                                              RL_EFFECT_READ_WRITE};
    }
  }
  return rl_hazard_plan_compute(launches, count, capture->buffer_count, first,
                                out_plan);
}

rl_status_t rl_hazard_plan_create_range(const rl_capture_t* capture,
                                        uint32_t first, uint32_t count,
                                        rl_hazard_plan_t** out_plan) {
  if (!capture || !out_plan) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "hazard plan: a capture and an output are required");
  }
  *out_plan = NULL;
  if (first > capture->launch_count || count > capture->launch_count - first) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "launches [%u, +%u) are outside the capture's %u", first,
                     count, capture->launch_count);
  }
  size_t access_count = 0;
  for (uint32_t k = 0; k < count; ++k) {
    const rl_capture_launch_t* launch = &capture->launches[first + k];
    access_count +=
        launch->slot_count + rl_hazard_variable_count(capture, launch);
  }
  rl_hazard_launch_t* launches = calloc(count ? count : 1, sizeof(*launches));
  rl_hazard_access_t* accesses =
      calloc(access_count ? access_count : 1, sizeof(*accesses));
  rl_status_t status = RL_OK;
  if (!launches || !accesses) {
    status = rl_status_out_of_memory();
  } else {
    status = rl_hazard_plan_from_slots(capture, first, count, launches,
                                       accesses, out_plan);
  }
  free(launches);
  free(accesses);
  return status;
}

rl_status_t rl_hazard_plan_create(const rl_capture_t* capture,
                                  rl_hazard_plan_t** out_plan) {
  if (!capture || !out_plan) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "hazard plan: a capture and an output are required");
  }
  return rl_hazard_plan_create_range(capture, 0, capture->launch_count,
                                     out_plan);
}
