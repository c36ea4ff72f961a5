// The no-op executor (sim/sim.h): every dispatch is accepted and
// every work-group returns at once, so a run measures the host side and the
// command processor without kernel execution.
#include "sim/sim.h"

static rl_status_t rl_sim_noop_begin(void* self,
                                     const rl_sim_dispatch_t* dispatch,
                                     void** out_state) {
  (void)self;
  (void)dispatch;
  *out_state = NULL;
  return RL_OK;
}

static rl_status_t rl_sim_noop_run(void* self, void* state, rl_sim_wg_t* wg) {
  (void)self;
  (void)state;
  (void)wg;
  return RL_OK;
}

static void rl_sim_noop_end(void* self, void* state) {
  (void)self;
  (void)state;
}

static const rl_sim_executor_t rl_sim_noop = {
    .name = "noop",
    .begin = rl_sim_noop_begin,
    .run_workgroup = rl_sim_noop_run,
    .end = rl_sim_noop_end,
    .leaves_lds_untouched = true,
};

const rl_sim_executor_t* rl_sim_noop_executor(void) { return &rl_sim_noop; }
