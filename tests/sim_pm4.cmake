# Tests of the simulated device's PM4 interpreter (redline/sim/sim_pm4.h):
# hand-built IBs (pm4/pm4_builder.h) dispatching the vecchain kernels of
# gfx1100 and gfx1201 on the reference executor. Run them under
# -DRL_SANITIZE=thread and address,undefined too: WAIT_REG_MEM polls memory
# a host thread writes, and queue_destroy must end a hung wait. sim_cache_test
# covers the cache model (redline/sim/sim_cache.h) with a negative control
# per rule.
foreach(rl_pm4_test sim_pm4_test sim_pm4_check_test sim_cache_test)
  rl_add_unit_test(${rl_pm4_test}
    SOURCES unit/${rl_pm4_test}.c unit/sim_pm4_test_util.c
            unit/sim_test_util.c
    LIBS rl_sim rl_pm4 rl_kernels_ref)
  add_dependencies(${rl_pm4_test} rl_kernels)
endforeach()
