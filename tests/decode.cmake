# Tests of the decode workload: the reference kernels of kernels/decode.hip
# against double-precision math (decode_ref_test) and one whole decode step
# recorded through the funnel on the simulated GPU against a host forward
# pass (decode_workload_test). -ffp-contract=off: the bit-exact
# expectations round exactly as written (fmaf where the ISA fuses).
rl_add_unit_test(decode_ref_test
  SOURCES unit/decode_ref_test.c unit/decode_test_util.c
  LIBS rl_device_funnel rl_kernels_ref rl_sim rl_capture m)
target_compile_options(decode_ref_test PRIVATE -ffp-contract=off)
add_dependencies(decode_ref_test rl_kernels)

rl_add_unit_test(decode_workload_test
  SOURCES unit/decode_workload_test.c unit/decode_test_util.c
  LIBS rl_device_funnel rl_kernels_ref rl_kernels_workloads rl_sim m)
target_compile_options(decode_workload_test PRIVATE -ffp-contract=off)
add_dependencies(decode_workload_test rl_kernels)
