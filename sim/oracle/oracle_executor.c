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
  uint64_t start = rl_now_ns();
  rl_sim_wg_t view = *wg;  // the same work-group, begin()'s dispatch
  view.dispatch = state->dispatch;
  rl_oracle_mem_t mem;
  rl_oracle_mem_init(&mem, &view);
  rl_oracle_run_t run;
  rl_oracle_run_workgroup(&view, &mem, &run);
  uint64_t spent = rl_now_ns() - start;
  rl_status_t status = oracle->inner->run_workgroup(oracle->inner->self,
                                                    state->inner_state, wg);
  state->failed |= status != RL_OK;
  start = rl_now_ns();
  uint64_t bytes = 0;
  bool checked = false;
  if (!status && run.outcome == RL_ORACLE_DONE) {
    rl_oracle_compare(oracle, wg, &mem, &bytes);
    checked = true;
  } else if (!status && run.outcome == RL_ORACLE_FAULT) {
    char text[256];
    snprintf(text, sizeof(text),
             "the oracle faulted where the simulator did not: %s", run.why);
    rl_oracle_mismatch(oracle, wg, text);
    checked = true;
  }
  rl_oracle_mem_free(&mem);
  spent += rl_now_ns() - start;
  pthread_mutex_lock(&oracle->lock);
  rl_oracle_report_t* r = &oracle->report;
  r->oracle_ns += spent;
  r->wave_instructions += run.steps;
  r->bytes_compared += bytes;
  if (checked) {
    r->workgroups_checked++;
    state->checked++;
  } else if (run.outcome == RL_ORACLE_SKIP) {
    r->workgroups_skipped++;
    state->skipped++;
    rl_oracle_add_reason(r, run.why);
  }
  pthread_mutex_unlock(&oracle->lock);
  return status;
}

static void rl_oracle_end(void* self, void* opaque) {
  rl_oracle_t* oracle = self;
  rl_oracle_dispatch_state_t* state = opaque;
  oracle->inner->end(oracle->inner->self, state->inner_state);
  // A picked work-group the simulator never ran: its grid was not the
  // packet's.
  if (oracle->mode == RL_ORACLE_SAMPLE && !state->failed) {
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
  // Whole work-groups only (no wg_open/wg_step): the oracle compares after
  // the simulator finished one.
  oracle->executor = (rl_sim_executor_t){
      .name = inner->name,
      .self = oracle,
      .begin = rl_oracle_begin,
      .run_workgroup = rl_oracle_run_wg,
      .end = rl_oracle_end,
      .check_kernel = rl_oracle_check_kernel,
      .instructions = rl_oracle_instructions,
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
