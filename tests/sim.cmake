# Tests of the simulated device (redline/sim/) and the AQL decoder
# (aql/aql_decode.c). The queue and hazard tests load the vecchain code
# object built by rl_kernels and run it with a test executor
# (unit/sim_test_util.c). Run them under -DRL_SANITIZE=thread too: the
# command-processor thread and the ring protocol must be TSan-clean.
rl_add_unit_test(aql_decode_test
  SOURCES unit/aql_decode_test.c
  LIBS rl_aql)

rl_add_unit_test(sim_memory_test
  SOURCES unit/sim_memory_test.c
  LIBS rl_sim)

rl_add_unit_test(sim_queue_test
  SOURCES unit/sim_queue_test.c unit/sim_test_util.c
  LIBS rl_sim)
add_dependencies(sim_queue_test rl_kernels)

rl_add_unit_test(sim_hazard_test
  SOURCES unit/sim_hazard_test.c unit/sim_test_util.c
  LIBS rl_sim)
add_dependencies(sim_hazard_test rl_kernels)
