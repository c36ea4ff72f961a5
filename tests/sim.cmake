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

# The adversarial scheduler's instruction-granular interleaving with the
# `isa` executor, on two racing kernels built here (unit/interleave_race.hip).
if(TARGET rl_sim_isa AND RL_HIP_CLANG)
  set(RL_RACE_FIXTURE "${CMAKE_CURRENT_BINARY_DIR}/interleave_race-gfx1100.co")
  add_custom_command(
    OUTPUT "${RL_RACE_FIXTURE}"
    COMMAND "${RL_HIP_CLANG}" -x hip -nogpulib -nogpuinc --offload-arch=gfx1100
            --cuda-device-only --no-gpu-bundle-output -O2
            -o "${RL_RACE_FIXTURE}"
            "${CMAKE_CURRENT_SOURCE_DIR}/unit/interleave_race.hip"
    DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/unit/interleave_race.hip"
    COMMENT "HIP gfx1100: interleave_race fixture"
    VERBATIM)
  add_custom_target(rl_interleave_fixture DEPENDS "${RL_RACE_FIXTURE}")
  rl_add_unit_test(sim_interleave_test
    SOURCES unit/sim_interleave_test.c unit/sim_test_util.c
    LIBS rl_sim_isa rl_sim
    LABELS "unit;threaded")
  target_compile_definitions(sim_interleave_test PRIVATE
    RL_RACE_FIXTURE="${RL_RACE_FIXTURE}")
  add_dependencies(sim_interleave_test rl_kernels rl_interleave_fixture)
endif()
