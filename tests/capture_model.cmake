# Tests of the capture model, hazard analysis, the recording funnel and the
# vecchain workload. All but hazard_test read the vecchain code object that
# rl_kernels builds into ${RL_KERNELS_DIR}.
rl_add_unit_test(hazard_test
  SOURCES unit/hazard_test.c
  LIBS rl_capture)

rl_add_unit_test(capture_model_test
  SOURCES unit/capture_model_test.c
  LIBS rl_capture)
add_dependencies(capture_model_test rl_kernels)

rl_add_unit_test(funnel_test
  SOURCES unit/funnel_test.c
  LIBS rl_capture)
add_dependencies(funnel_test rl_kernels)

rl_add_unit_test(vecchain_test
  SOURCES unit/vecchain_test.c
  LIBS rl_kernels_workloads rl_capture)
add_dependencies(vecchain_test rl_kernels)
