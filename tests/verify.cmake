# Tests of the verify workload (issue 17): the reference kernels of
# kernels/verify.hip (verify_ref_test: split-KV attention S = 1 bit for bit
# against direct attention and S = 8 against double precision, int8
# quantisation, rollback bytes, recurrence, acceptance) and the route's
# envelope (verify_route_test: admission edges, undersized workspace).
rl_add_unit_test(verify_ref_test
  SOURCES unit/verify_ref_test.c unit/decode_test_util.c
  LIBS rl_device_funnel rl_kernels_ref rl_sim rl_capture m)
target_compile_options(verify_ref_test PRIVATE -ffp-contract=off)
add_dependencies(verify_ref_test rl_kernels)

rl_add_unit_test(verify_route_test
  SOURCES unit/verify_route_test.c unit/decode_test_util.c
  LIBS rl_device_funnel rl_kernels_ref rl_kernels_workloads rl_sim m)
add_dependencies(verify_route_test rl_kernels)
