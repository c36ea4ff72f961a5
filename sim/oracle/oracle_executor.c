// sim/oracle/oracle_executor.c — the wrapping executor of oracle.h:
// picks work-groups, runs each in the oracle just before the executor under
// test runs it, compares the bytes the oracle wrote, keeps the report.
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "sim/oracle/oracle.h"
#include "sim/oracle/oracle_internal.h"

struct rl_oracle_s {
  const rl_sim_executor_t* inner;
  rl_oracle_mode_t mode;
  uint64_t seed;
  rl_sim_executor_t executor;
  pthread_mutex_t lock;
  rl_oracle_report_t report;  // under |lock|
};

// One dispatch: the inner executor's state and what the oracle did.
typedef struct rl_oracle_dispatch_state_s {
  void* inner_state;
  // The dispatch as begin() received it (a wrapper above may hand the
  // executor a changed copy, which lives only as long as begin()).
  rl_sim_dispatch_t copy;
  rl_code_object_kernel_t kernel;
  const rl_sim_dispatch_t* dispatch;  // &copy
  uint64_t total;       // work-groups in the grid
  uint64_t pick[2];     // sample mode: the flat ids picked
  bool ran[2];          // ... and whether the simulator ran them
  uint64_t checked, skipped;
  bool failed;  // a work-group failed (a VM fault): later ones never run
} rl_oracle_dispatch_state_t;

bool rl_oracle_mode_parse(const char* text, rl_oracle_mode_t* out_mode) {
  if (!text) return false;
  if (!strcmp(text, "off")) *out_mode = RL_ORACLE_OFF;
  else if (!strcmp(text, "sample")) *out_mode = RL_ORACLE_SAMPLE;
  else if (!strcmp(text, "full")) *out_mode = RL_ORACLE_FULL;
  else return false;
  return true;
}

const char* rl_oracle_mode_name(rl_oracle_mode_t mode) {
  switch (mode) {
    case RL_ORACLE_SAMPLE: return "sample";
    case RL_ORACLE_FULL: return "full";
    default: return "off";
  }
}

static uint64_t rl_oracle_mix(uint64_t x) {  // splitmix64's finaliser
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

static uint64_t rl_oracle_flat_id(const rl_sim_wg_t* wg) {
  const uint32_t* n = wg->dispatch->workgroup_count;
  return wg->group_id[0] +
         (uint64_t)n[0] * (wg->group_id[1] + (uint64_t)n[1] * wg->group_id[2]);
}

static void rl_oracle_add_reason(rl_oracle_report_t* r, const char* why) {
  for (uint32_t i = 0; i < r->reason_count && i < RL_ORACLE_MAX_REASONS; ++i) {
    if (!strcmp(r->reasons[i].text, why)) {
      r->reasons[i].count++;
      return;
    }
  }
  if (r->reason_count < RL_ORACLE_MAX_REASONS) {
    rl_oracle_reason_t* reason = &r->reasons[r->reason_count];
    snprintf(reason->text, sizeof(reason->text), "%s", why);
    reason->count = 1;
  }
  r->reason_count++;
}

static void rl_oracle_mismatch(rl_oracle_t* oracle, const rl_sim_wg_t* wg,
                               const char* text) {
  pthread_mutex_lock(&oracle->lock);
  rl_oracle_report_t* r = &oracle->report;
  if (!r->mismatch) {
    r->mismatch = true;
    r->mismatch_dispatch = wg->dispatch->dispatch_index;
    snprintf(r->mismatch_kernel, sizeof(r->mismatch_kernel), "%s",
             wg->dispatch->kernel ? wg->dispatch->kernel->name : "?");
    memcpy(r->mismatch_group, wg->group_id, sizeof(r->mismatch_group));
    snprintf(r->mismatch_text, sizeof(r->mismatch_text), "%s", text);
  }
  pthread_mutex_unlock(&oracle->lock);
}

static rl_status_t rl_oracle_begin(void* self,
                                   const rl_sim_dispatch_t* dispatch,
                                   void** out_state) {
  rl_oracle_t* oracle = self;
  rl_oracle_dispatch_state_t* state = calloc(1, sizeof(*state));
  if (!state) return RL_STATUS(RL_STATUS_OUT_OF_MEMORY, "oracle: dispatch");
  rl_status_t status =
      oracle->inner->begin(oracle->inner->self, dispatch, &state->inner_state);
  if (status) {
    free(state);
    return status;
  }
  state->copy = *dispatch;
  if (dispatch->kernel) {
    state->kernel = *dispatch->kernel;
    state->copy.kernel = &state->kernel;
  }
  state->dispatch = &state->copy;
  state->total = (uint64_t)dispatch->workgroup_count[0] *
                 dispatch->workgroup_count[1] * dispatch->workgroup_count[2];
  uint64_t total = state->total ? state->total : 1;
  // One work-group by the seed, another than the last when there are two,
  // and the last (the grid's far corner: every axis at its end).
  state->pick[0] = rl_oracle_mix(oracle->seed ^ dispatch->dispatch_index) %
                   (total > 1 ? total - 1 : 1);
  state->pick[1] = total - 1;
  *out_state = state;
  return RL_OK;
}

static bool rl_oracle_picked(const rl_oracle_t* oracle,
                             rl_oracle_dispatch_state_t* state, uint64_t id) {
  if (oracle->mode == RL_ORACLE_FULL) return true;
  bool picked = false;
  for (int i = 0; i < 2; ++i) {
    if (state->pick[i] == id) {
      state->ran[i] = true;
      picked = true;
    }
  }
  return picked;
}

// Every byte of |mem| against the simulator's memory now; false (with the
// mismatch recorded) at the first difference.
static bool rl_oracle_compare(rl_oracle_t* oracle, rl_sim_wg_t* wg,
                              const rl_oracle_mem_t* mem,
                              uint64_t* out_bytes) {
  for (uint32_t i = 0; i < mem->capacity; ++i) {
    const rl_oracle_page_t* page = mem->slots[i];
    if (!page) continue;
    uint8_t now[RL_ORACLE_PAGE];
    for (uint32_t at = 0; at < RL_ORACLE_PAGE; ++at) {
      if (!((page->written[at / 8] >> (at % 8)) & 1)) continue;
      ++*out_bytes;
      uint8_t got = 0;
      rl_sim_wg_peek(wg, page->base + at, &got, 1);
      if (got == page->data[at]) continue;
      // The run of bytes from here, up to 8, both ways.
      uint32_t n = 0;
      char want_hex[32] = "", got_hex[32] = "";
      while (n < 8 && at + n < RL_ORACLE_PAGE &&
             ((page->written[(at + n) / 8] >> ((at + n) % 8)) & 1)) {
        rl_sim_wg_peek(wg, page->base + at + n, &now[n], 1);
        snprintf(want_hex + 3 * n, 4, "%02x ", page->data[at + n]);
        snprintf(got_hex + 3 * n, 4, "%02x ", now[n]);
        ++n;
      }
      if (n) want_hex[3 * n - 1] = got_hex[3 * n - 1] = 0;
      char text[256];
      snprintf(text, sizeof(text),
               "address 0x%" PRIx64 ": expected (oracle) %s, got "
               "(simulator) %s",
               page->base + at, want_hex, got_hex);
      rl_oracle_mismatch(oracle, wg, text);
      return false;
    }
  }
  return true;
}

// Whether |set| holds [begin, end).
static bool rl_oracle_set_holds(const rl_sim_wg_writes_t* set, uint64_t begin,
                                uint64_t end) {
  uint32_t count = rl_sim_wg_writes_count(set);
  uint32_t lo = 0, hi = count;
  uint64_t b = 0, e = 0;
  while (lo < hi) {  // the first range ending after |begin|
    uint32_t mid = lo + (hi - lo) / 2;
    rl_sim_wg_writes_range(set, mid, &b, &e);
    if (e <= begin) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (lo == count) return false;
  rl_sim_wg_writes_range(set, lo, &b, &e);
  return b <= begin && e >= end;
}

// The extent of the writes: every byte the simulator wrote for this
// work-group (|written|) the oracle wrote too, and the reverse; false
// (with the mismatch recorded) at the first byte only one side wrote.
static bool rl_oracle_compare_extent(rl_oracle_t* oracle, rl_sim_wg_t* wg,
                                     const rl_oracle_mem_t* mem,
                                     const rl_sim_wg_writes_t* written) {
  char text[256];
  for (uint32_t r = 0; r < rl_sim_wg_writes_count(written); ++r) {
    uint64_t begin = 0, stop = 0;
    rl_sim_wg_writes_range(written, r, &begin, &stop);
    for (uint64_t a = begin; a < stop; ++a) {
      if (rl_oracle_mem_written(mem, a)) continue;
      uint64_t end = a;
      while (end < stop && !rl_oracle_mem_written(mem, end)) ++end;
      snprintf(text, sizeof(text),
               "address 0x%" PRIx64 ": the simulator wrote %" PRIu64
               " byte(s) there that the oracle did not write",
               a, end - a);
      rl_oracle_mismatch(oracle, wg, text);
      return false;
    }
  }
  for (uint32_t i = 0; i < mem->capacity; ++i) {
    const rl_oracle_page_t* page = mem->slots[i];
    if (!page) continue;
    for (uint32_t at = 0; at < RL_ORACLE_PAGE;) {
      if (!((page->written[at / 8] >> (at % 8)) & 1)) {
        ++at;
        continue;
      }
      uint32_t end = at;
      while (end < RL_ORACLE_PAGE &&
             ((page->written[end / 8] >> (end % 8)) & 1)) {
        ++end;
      }
      if (!rl_oracle_set_holds(written, page->base + at, page->base + end)) {
        uint64_t a = page->base + at;  // the first byte not held
        while (rl_oracle_set_holds(written, a, a + 1)) ++a;
        snprintf(text, sizeof(text),
                 "address 0x%" PRIx64 ": the oracle wrote it, the simulator "
                 "did not",
                 a);
        rl_oracle_mismatch(oracle, wg, text);
        return false;
      }
      at = end;
    }
  }
  return true;
}

// One picked work-group's check: the oracle's run and overlay, and the
// simulator's writes of it (rl_sim_wg_watch_writes). Not moved once begun
// (|mem| points at |view|).
typedef struct rl_oracle_check_s {
  rl_sim_wg_t view;  // the same work-group, begin()'s dispatch
  rl_oracle_mem_t mem;
  rl_oracle_run_t run;
  rl_sim_wg_writes_t* written;  // NULL: out of memory (not compared)
  uint64_t spent;  // ns in the oracle
} rl_oracle_check_t;

// Runs |wg| in the oracle on memory as it is now and starts watching the
// simulator's writes of it.
static void rl_oracle_check_begin(rl_oracle_dispatch_state_t* state,
                                  rl_sim_wg_t* wg, rl_oracle_check_t* check) {
  uint64_t start = rl_now_ns();
  memset(check, 0, sizeof(*check));
  check->view = *wg;
  check->view.dispatch = state->dispatch;
  rl_oracle_mem_init(&check->mem, &check->view);
  rl_oracle_run_workgroup(&check->view, &check->mem, &check->run);
  check->spent = rl_now_ns() - start;
  check->written = rl_sim_wg_writes_new();
  rl_sim_wg_watch_writes(wg, check->written);
}

// After the simulator ran |wg| (|status|; |done|: to its end): compares,
// counts, frees.
static void rl_oracle_check_end(rl_oracle_t* oracle,
                                rl_oracle_dispatch_state_t* state,
                                rl_sim_wg_t* wg, rl_oracle_check_t* check,
                                rl_status_t status, bool done) {
  rl_sim_wg_watch_writes(wg, NULL);
  uint64_t start = rl_now_ns();
  uint64_t bytes = 0;
  bool checked = false;
  const rl_oracle_run_t* run = &check->run;
  const char* skip = run->outcome == RL_ORACLE_SKIP ? run->why : NULL;
  if (!status && !done) {
    skip = "a work-group that waited on others when run whole (interleaved)";
  } else if (!status && run->outcome == RL_ORACLE_DONE) {
    if (rl_oracle_compare(oracle, wg, &check->mem, &bytes) &&
        check->written) {
      rl_oracle_compare_extent(oracle, wg, &check->mem, check->written);
    }
    checked = true;
  } else if (!status && run->outcome == RL_ORACLE_FAULT) {
    char text[256];
    snprintf(text, sizeof(text),
             "the oracle faulted where the simulator did not: %s", run->why);
    rl_oracle_mismatch(oracle, wg, text);
    checked = true;
  }
  rl_oracle_mem_free(&check->mem);
  rl_sim_wg_writes_free(check->written);
  uint64_t spent = check->spent + (rl_now_ns() - start);
  pthread_mutex_lock(&oracle->lock);
  rl_oracle_report_t* r = &oracle->report;
  r->oracle_ns += spent;
  r->wave_instructions += run->steps;
  r->bytes_compared += bytes;
  if (checked) {
    r->workgroups_checked++;
    state->checked++;
  } else if (skip) {
    r->workgroups_skipped++;
    state->skipped++;
    rl_oracle_add_reason(r, skip);
  }
  pthread_mutex_unlock(&oracle->lock);
}

static rl_status_t rl_oracle_run_wg(void* self, void* opaque,
                                    rl_sim_wg_t* wg) {
  rl_oracle_t* oracle = self;
  rl_oracle_dispatch_state_t* state = opaque;
  if (!rl_oracle_picked(oracle, state, rl_oracle_flat_id(wg))) {
    rl_status_t status = oracle->inner->run_workgroup(oracle->inner->self,
                                                      state->inner_state, wg);
    state->failed |= status != RL_OK;
    return status;
  }
  rl_oracle_check_t* check = malloc(sizeof(*check));
  if (!check) return RL_STATUS(RL_STATUS_OUT_OF_MEMORY, "oracle: work-group");
  rl_oracle_check_begin(state, wg, check);
  rl_status_t status = oracle->inner->run_workgroup(oracle->inner->self,
                                                    state->inner_state, wg);
  state->failed |= status != RL_OK;
  rl_oracle_check_end(oracle, state, wg, check, status, true);
  free(check);
  return status;
}

// Resumable work-groups (the adversarial scheduler's interleaving and the
// cooperative schedule, rl_sim_executor_t.wg_open): an unpicked one is the
// inner executor's, stepped as it is asked. A picked one runs whole at its
// first step: the oracle runs it on memory as it is at that point of the
// interleaving, then the inner executor runs it to its end in one step
// (no other work-group's instruction in between, as in the sequential
// order), and its bytes are compared. A cooperative dispatch is never
// picked (a grid barrier needs the other work-groups).
typedef struct rl_oracle_open_s {
  rl_oracle_t* oracle;
  rl_oracle_dispatch_state_t* state;
  rl_sim_wg_t* wg;
  void* inner;
  bool picked;
} rl_oracle_open_t;

static rl_status_t rl_oracle_wg_open(void* self, void* opaque, rl_sim_wg_t* wg,
                                     void** out_wg_state) {
  rl_oracle_t* oracle = self;
  rl_oracle_dispatch_state_t* state = opaque;
  rl_oracle_open_t* open = calloc(1, sizeof(*open));
  if (!open) return RL_STATUS(RL_STATUS_OUT_OF_MEMORY, "oracle: work-group");
  rl_status_t status = oracle->inner->wg_open(
      oracle->inner->self, state->inner_state, wg, &open->inner);
  if (status) {
    free(open);
    state->failed = true;
    return status;
  }
  open->oracle = oracle;
  open->state = state;
  open->wg = wg;
  open->picked = !state->dispatch->cooperative &&
                 rl_oracle_picked(oracle, state, rl_oracle_flat_id(wg));
  *out_wg_state = open;
  return RL_OK;
}

static rl_status_t rl_oracle_wg_step(void* self, void* wg_state,
                                     uint64_t quantum, bool* out_done) {
  rl_oracle_t* oracle = self;
  rl_oracle_open_t* open = wg_state;
  if (!open->picked) {
    rl_status_t status = oracle->inner->wg_step(oracle->inner->self,
                                                open->inner, quantum, out_done);
    open->state->failed |= status != RL_OK;
    return status;
  }
  open->picked = false;  // checked once, now
  rl_oracle_check_t* check = malloc(sizeof(*check));
  if (!check) return RL_STATUS(RL_STATUS_OUT_OF_MEMORY, "oracle: work-group");
  rl_oracle_check_begin(open->state, open->wg, check);
  rl_status_t status = oracle->inner->wg_step(oracle->inner->self, open->inner,
                                              UINT64_MAX, out_done);
  open->state->failed |= status != RL_OK;
  rl_oracle_check_end(oracle, open->state, open->wg, check, status,
                      *out_done);
  free(check);
  return status;
}

static void rl_oracle_wg_close(void* self, void* wg_state) {
  rl_oracle_t* oracle = self;
  rl_oracle_open_t* open = wg_state;
  oracle->inner->wg_close(oracle->inner->self, open->inner);
  free(open);
}

static bool rl_oracle_wg_blocked(void* self, void* wg_state, char* why,
                                 size_t why_size) {
  rl_oracle_t* oracle = self;
  rl_oracle_open_t* open = wg_state;
  return oracle->inner->wg_blocked &&
         oracle->inner->wg_blocked(oracle->inner->self, open->inner, why,
                                   why_size);
}

static void rl_oracle_end(void* self, void* opaque) {
  rl_oracle_t* oracle = self;
  rl_oracle_dispatch_state_t* state = opaque;
  oracle->inner->end(oracle->inner->self, state->inner_state);
  // A picked work-group the simulator never ran: its grid was not the
  // packet's.
  if (oracle->mode == RL_ORACLE_SAMPLE && !state->failed &&
      !state->dispatch->cooperative) {
    for (int i = 0; i < 2; ++i) {
      if (state->ran[i] || state->total == 0) continue;
      const rl_sim_dispatch_t* d = state->dispatch;
      const uint32_t* n = d->workgroup_count;
      uint64_t id = state->pick[i];
      rl_sim_wg_t wg = {.dispatch = d};
      wg.group_id[0] = (uint32_t)(id % n[0]);
      wg.group_id[1] = (uint32_t)((id / n[0]) % n[1]);
      wg.group_id[2] = (uint32_t)(id / ((uint64_t)n[0] * n[1]));
      rl_oracle_mismatch(oracle, &wg,
                         "the simulator never ran this work-group of the "
                         "dispatch's grid");
      break;
    }
  }
  pthread_mutex_lock(&oracle->lock);
  rl_oracle_report_t* r = &oracle->report;
  if (state->dispatch->cooperative && state->total) {  // never picked
    state->skipped++;
    r->workgroups_skipped++;
    rl_oracle_add_reason(r, "a cooperative dispatch (its grid barrier "
                            "needs every work-group)");
  }
  r->dispatches++;
  r->workgroups += state->total;
  if (state->checked) {
    r->dispatches_checked++;
  } else if (state->skipped) {
    r->dispatches_skipped++;
  }
  pthread_mutex_unlock(&oracle->lock);
  free(state);
}

static rl_status_t rl_oracle_check_kernel(void* self, const char* processor,
                                          const void* image,
                                          uint64_t image_size,
                                          const rl_code_object_kernel_t* k) {
  rl_oracle_t* oracle = self;
  if (!oracle->inner->check_kernel) return RL_OK;
  return oracle->inner->check_kernel(oracle->inner->self, processor, image,
                                     image_size, k);
}

static uint64_t rl_oracle_instructions(void* self) {
  rl_oracle_t* oracle = self;
  return oracle->inner->instructions
             ? oracle->inner->instructions(oracle->inner->self)
             : 0;
}

rl_status_t rl_oracle_create(const rl_sim_executor_t* inner,
                             rl_oracle_mode_t mode, uint64_t seed,
                             rl_oracle_t** out_oracle) {
  *out_oracle = NULL;
  if (!inner) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "oracle: no executor to wrap");
  }
  rl_oracle_t* oracle = calloc(1, sizeof(*oracle));
  if (!oracle) return RL_STATUS(RL_STATUS_OUT_OF_MEMORY, "oracle");
  oracle->inner = inner;
  oracle->mode = mode == RL_ORACLE_OFF ? RL_ORACLE_SAMPLE : mode;
  oracle->seed = seed;
  oracle->report.mode = oracle->mode;
  pthread_mutex_init(&oracle->lock, NULL);
  // Resumable work-groups when the inner executor has them (the oracle
  // checks a picked one whole: rl_oracle_wg_step).
  bool resumable = inner->wg_open && inner->wg_step && inner->wg_close;
  oracle->executor = (rl_sim_executor_t){
      .name = inner->name,
      .self = oracle,
      .begin = rl_oracle_begin,
      .run_workgroup = rl_oracle_run_wg,
      .end = rl_oracle_end,
      .check_kernel = rl_oracle_check_kernel,
      .instructions = rl_oracle_instructions,
      .wg_open = resumable ? rl_oracle_wg_open : NULL,
      .wg_step = resumable ? rl_oracle_wg_step : NULL,
      .wg_close = resumable ? rl_oracle_wg_close : NULL,
      .wg_blocked = resumable ? rl_oracle_wg_blocked : NULL,
  };
  *out_oracle = oracle;
  return RL_OK;
}

void rl_oracle_destroy(rl_oracle_t* oracle) {
  if (!oracle) return;
  pthread_mutex_destroy(&oracle->lock);
  free(oracle);
}

const rl_sim_executor_t* rl_oracle_executor(rl_oracle_t* oracle) {
  return &oracle->executor;
}

void rl_oracle_report(rl_oracle_t* oracle, rl_oracle_report_t* out_report) {
  pthread_mutex_lock(&oracle->lock);
  *out_report = oracle->report;
  pthread_mutex_unlock(&oracle->lock);
}

void rl_oracle_report_format(const rl_oracle_report_t* r, char* buffer,
                             uint32_t size) {
  int n = snprintf(buffer, size,
                   "oracle executor (%s): %" PRIu64 " of %" PRIu64
                   " work-groups in %" PRIu64 " of %" PRIu64
                   " dispatches checked, %" PRIu64 " skipped",
                   rl_oracle_mode_name(r->mode), r->workgroups_checked,
                   r->workgroups, r->dispatches_checked, r->dispatches,
                   r->dispatches_skipped);
  for (uint32_t i = 0; i < r->reason_count && i < RL_ORACLE_MAX_REASONS; ++i) {
    if (n < 0 || (uint32_t)n >= size) return;
    n += snprintf(buffer + n, size - (uint32_t)n, "%s%" PRIu64 " x %s",
                  i == 0 ? " (" : "; ", r->reasons[i].count,
                  r->reasons[i].text);
  }
  if (r->reason_count && n >= 0 && (uint32_t)n < size) {
    snprintf(buffer + n, size - (uint32_t)n, "%s)",
             r->reason_count > RL_ORACLE_MAX_REASONS ? "; ..." : "");
  }
}
