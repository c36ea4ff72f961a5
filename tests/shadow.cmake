# Tests of shadow runs, bench and demo (rl_shadow, `redline shadow`,
# `bench`, `demo`): the comparator on hand-made bytes, the library API on an
# in-process decode capture, and the CLI in fresh processes on captures of
# every target (tests/integration/shadow_cli_test.sh). Every shadow case
# requests all four arms, pm4 included: it passes only while the pm4 route
# works end to end.
rl_add_unit_test(shadow_api_test
  SOURCES integration/shadow_api_test.c unit/shadow/shadow_test_capture.c
  LIBS rl_shadow rl_kernels_workloads LABELS integration)
add_dependencies(shadow_api_test rl_kernels)
# The arms on several host threads (--arm-jobs, "arm_jobs"): the same report
# with 1 and 4 jobs, and a damaged arm's same verdict; under TSan too.
rl_add_unit_test(shadow_arm_jobs_test
  SOURCES integration/shadow_arm_jobs_test.c
  LIBS rl_shadow_json rl_shadow_hip rl_backends rl_capture PkgConfig::CJSON
  LABELS integration threaded)
add_dependencies(shadow_arm_jobs_test redline rl_kernels rl_hip_sim)
set_tests_properties(shadow_arm_jobs_test PROPERTIES
  ENVIRONMENT "REDLINE_HIP_LIBRARY=${RL_STANDIN_HIP_LIBRARY}")
if(RL_SANITIZE)  # the decode cases took 698 s under TSan: vecchain and the
  # damaged route only (shadow_arm_jobs_test.c)
  target_compile_definitions(shadow_arm_jobs_test PRIVATE
    RL_ARM_JOBS_SANITIZED)
  set_tests_properties(shadow_arm_jobs_test PROPERTIES TIMEOUT 900)
endif()

set(RL_SHADOW_CLI ${CMAKE_CURRENT_SOURCE_DIR}/integration/shadow_cli_test.sh)
# rl_add_shadow_cli_test(NAME LABELS TIMEOUT ARGS...)
function(rl_add_shadow_cli_test name labels timeout)
  if(RL_SANITIZE)  # several times slower under the sanitizers
    math(EXPR timeout "${timeout} * 3")
  endif()
  add_test(NAME ${name}
    COMMAND sh ${RL_SHADOW_CLI} $<TARGET_FILE:redline> ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS "${labels}" TIMEOUT ${timeout}
    ENVIRONMENT "REDLINE_KERNELS_DIR=${RL_KERNELS_DIR}")
endfunction()

foreach(target gfx1100 gfx1151 gfx1201)
  rl_add_shadow_cli_test(shadow_decode_${target} integration 300
    pass decode ${target} --)
  rl_add_shadow_cli_test(shadow_decode_${target}_adversarial integration 300
    pass decode ${target} -- --hazards adversarial --seed 7)
  rl_add_shadow_cli_test(shadow_decode48_${target} "integration;slow" 600
    pass decode ${target} --layers 48 --)
endforeach()
# The default shadow runs the retained arms under two adversarial seeds as
# well (--adversarial-seeds 2), so the 48-layer runs above cover the
# interleaved order too; every arm adversarial is covered at 4 layers.
rl_add_shadow_cli_test(shadow_vecchain integration 300
  pass vecchain gfx1100 --)
rl_add_shadow_cli_test(shadow_vecchain_adversarial integration 300
  pass vecchain gfx1100 -- --hazards adversarial --seed 3)
rl_add_shadow_cli_test(shadow_negative_control integration 300 flip)
rl_add_shadow_cli_test(shadow_cache_negative_control integration 300 cache)
rl_add_shadow_cli_test(shadow_relay_negative_control integration 300 relay)
rl_add_shadow_cli_test(shadow_effects_negative_control integration 300 effects)
rl_add_shadow_cli_test(shadow_workspace_contract integration 300 workspace)
rl_add_shadow_cli_test(bench_cli integration 300 bench)
rl_add_shadow_cli_test(bench_split_cli integration 300 bench_split)
rl_add_shadow_cli_test(demo_cli integration 300 demo)
# Repeated hazard findings printed once each with a count, a verdict line
# within 200 characters (issue 28 item 4), with a negative control.
rl_add_shadow_cli_test(shadow_findings_cli integration 300 findings)

# The gfx11 ISA executor (issue 7): every arm runs the compiler's machine
# code instead of the reference kernels and must still agree byte for byte,
# also with adversarial interleaving; gfx1201 runs gfx12 machine code
# (issue 15, docs/isa-gfx12.md).
foreach(target gfx1100 gfx1151 gfx1201)
  rl_add_shadow_cli_test(shadow_isa_decode_${target} integration 300
    pass decode ${target} --executor isa -- --executor isa)
  rl_add_shadow_cli_test(shadow_isa_decode_${target}_adversarial integration 300
    pass decode ${target} --executor isa -- --executor isa --hazards adversarial --seed 5)
  rl_add_shadow_cli_test(shadow_isa_vecchain_${target} integration 300
    pass vecchain ${target} --executor isa -- --executor isa --hazards adversarial --seed 9)
endforeach()
rl_add_shadow_cli_test(demo_isa_cli integration 300 demo --executor isa)
rl_add_shadow_cli_test(demo_isa_gfx1201_cli integration 300
  demo --executor isa --processor gfx1201)

# The mutation proof (tools/shadow_mutations.sh, docs/shadow-mutations.md):
# every test-only fault of base/test_fault.h makes the default
# `redline shadow` fail on decode (or is proven equivalent: identical
# streams), and the negative control passes.
# On gfx1100 and on gfx1201 (RDNA4: its own PM4 family tables and GCR
# bits); about 4 min each on the shared 2-core machine.
# The code rows (a mutated scratch build each) run in
# shadow_mutations_code below, not here.
add_test(NAME shadow_mutations
  COMMAND bash ${PROJECT_SOURCE_DIR}/tools/shadow_mutations.sh
          $<TARGET_FILE:redline> "" gfx1100 none)
add_test(NAME shadow_mutations_gfx1201
  COMMAND bash ${PROJECT_SOURCE_DIR}/tools/shadow_mutations.sh
          $<TARGET_FILE:redline> "" gfx1201 none)
# Labelled slow: the sanitizer stage skips them (the same binary run 30
# times with faults injected adds no sanitizer coverage over the shadow
# tests, and costs about 3 min there).
set_tests_properties(shadow_mutations shadow_mutations_gfx1201 PROPERTIES
  LABELS "integration;slow" TIMEOUT 600
  ENVIRONMENT "REDLINE_KERNELS_DIR=${RL_KERNELS_DIR}")
# The fast subset of the code rows (issue 27 item 7): executor mistakes
# no test switch can make, applied to a scratch copy of the tree and
# rebuilt, which the second executor (eager@isa) must catch in the default
# shadow; one escape row (a VOP3 form no workload executes) must pass.
# The same ids also run on the capture of the HIP corpus program
# oracle_probe, where the oracle executor is the independent reference
# (docs/shadow-oracle.md): cndmask_high_half_inverted and vop3_add_sub must
# fail its default shadow there.
# One scratch build of redline and three mutated rebuilds (284 s under
# load 12-14 with a warm ccache, more without); the full table is
# `tools/shadow_mutations.sh` with no arguments.
add_test(NAME shadow_mutations_code
  COMMAND bash ${PROJECT_SOURCE_DIR}/tools/shadow_mutations.sh
          $<TARGET_FILE:redline> "" gfx1100
          only:vop3_mul_as_add,cndmask_high_half_inverted,vop3_add_sub)
set_tests_properties(shadow_mutations_code PROPERTIES
  LABELS "mutation;slow" TIMEOUT 1500
  ENVIRONMENT "REDLINE_KERNELS_DIR=${RL_KERNELS_DIR}")
