# Tests of kernels/ref/ (the reference executor) and of the funnel adapter
# over a device (redline/device/device_funnel.c), both end to end on the
# simulated GPU. -ffp-contract=off: the expected values must round exactly
# as written (fmaf where the ISA fuses, two roundings elsewhere).
rl_add_unit_test(ref_executor_test
  SOURCES unit/ref_executor_test.c
  LIBS rl_kernels_ref rl_sim rl_capture m)
target_compile_options(ref_executor_test PRIVATE -ffp-contract=off)
add_dependencies(ref_executor_test rl_kernels)

rl_add_unit_test(device_funnel_test
  SOURCES unit/device_funnel_test.c
  LIBS rl_device_funnel rl_kernels_ref rl_kernels_workloads rl_sim m)
target_compile_options(device_funnel_test PRIVATE -ffp-contract=off)
add_dependencies(device_funnel_test rl_kernels)
