# Integration tests of the verify workload (issue 17); its unit tests are
# tests/unit/kernels/ref/verify_ref_test.c (the reference kernels) and
# tests/unit/kernels/workloads/verify_{route,workload}_test.c (the route's envelope,
# the workload).
# Shadow runs of the verify workload at demo scale (2 layers, 1024 rows,
# crossover 256, window 816.. stride 16): the four engine arms with the
# reference and the ISA executor, all six arms with the HIP stand-in, and
# the envelope refusals and region negative controls
# (integration/verify_cli_test.sh). The long-context run (the issue's
# done-when: B 16 from pos 8176, 6 arms plus the adversarial passes, ISA
# executor) is labelled slow: 171 s of CPU, 484 s wall on the loaded 2-core
# machine; its waits are bounded at 300 s because one ISA step takes seconds
# there.
set(RL_VERIFY_SMALL --config layers=2 --config max_context=1024
  --config crossover=256)
foreach(target gfx1100 gfx1151 gfx1201)
  rl_add_shadow_cli_test(shadow_verify_${target} integration 300
    pass verify ${target} ${RL_VERIFY_SMALL} --)
endforeach()
rl_add_shadow_cli_test(shadow_isa_verify_gfx1100 integration 300
  pass verify gfx1100 ${RL_VERIFY_SMALL} --executor isa -- --executor isa)
# Six arms plus the default two adversarial passes of aql and pm4 and the
# second executor (eager@isa, eager@ref with --executor isa): 11.
rl_add_shadow_runtime_test(shadow_runtimes_verify
  arms eager,recorded,aql,pm4,hip,hipgraph 11 verify gfx1100 ${RL_VERIFY_SMALL}
  --)
rl_add_shadow_runtime_test(shadow_runtimes_verify8k_isa
  arms eager,recorded,aql,pm4,hip,hipgraph 11 verify gfx1100 --layers 2
  --executor isa -- --executor isa --timeout-ms 300000)
set_tests_properties(shadow_runtimes_verify8k_isa PROPERTIES
  LABELS "integration;slow" TIMEOUT 3600)
foreach(case refuse flip executors)
  add_test(NAME verify_cli_${case}
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/integration/verify_cli_test.sh
      $<TARGET_FILE:redline> ${case})
  set_tests_properties(verify_cli_${case} PROPERTIES LABELS integration
    TIMEOUT 300 ENVIRONMENT "REDLINE_KERNELS_DIR=${RL_KERNELS_DIR}")
endforeach()

# `redline demo --workload verify`: capture, inspect, route decisions,
# shadow and bench end with PASS (the demo itself checks each decision).
rl_add_shadow_cli_test(demo_verify_cli integration 300 demo --workload verify)

