# Tests of the replay engine (rl_engine: redline/replay*.c, device_open.c):
# contract and admission, runs equal to eager execution, failure classes
# and negative controls, the replay/lower CLI in a fresh process, the
# public-API example and a smoke run of the replay benchmark. All read the
# vecchain code object rl_kernels builds into ${RL_KERNELS_DIR}.
set(RL_ENGINE_TEST_LIBS rl_engine rl_kernels_workloads)

rl_add_unit_test(replay_contract_test
  SOURCES unit/replay_contract_test.c LIBS ${RL_ENGINE_TEST_LIBS})
rl_add_unit_test(replay_run_test
  SOURCES unit/replay_run_test.c LIBS ${RL_ENGINE_TEST_LIBS})
rl_add_unit_test(replay_poison_test
  SOURCES unit/replay_poison_test.c LIBS ${RL_ENGINE_TEST_LIBS})
# Budgets for untrusted captures at every layer (reader, contract,
# simulator, shadow), each with its negative control.
rl_add_unit_test(limits_test
  SOURCES unit/limits_test.c LIBS ${RL_ENGINE_TEST_LIBS} rl_shadow)
# 10,000 replays at cycling positions, each compared with the eager run.
add_test(NAME replay_soak_test COMMAND replay_run_test soak)
set_tests_properties(replay_soak_test PROPERTIES LABELS unit TIMEOUT 300)

rl_add_unit_test(replay_cli_test
  SOURCES integration/replay_cli_test.c
  LIBS ${RL_ENGINE_TEST_LIBS} PkgConfig::CJSON
  LABELS integration)
add_dependencies(replay_cli_test redline)
# Checked mode and the budgets through the CLI on crafted capture files.
rl_add_unit_test(limits_cli_test
  SOURCES integration/limits_cli_test.c
  LIBS ${RL_ENGINE_TEST_LIBS}
  LABELS integration)
add_dependencies(limits_cli_test redline)
foreach(test replay_contract_test replay_run_test replay_poison_test
        limits_test replay_cli_test limits_cli_test)
  add_dependencies(${test} rl_kernels)
endforeach()

# The example uses the public headers only (plus the sample workload).
add_executable(vecchain_example example/vecchain_example.c)
target_link_libraries(vecchain_example PRIVATE ${RL_ENGINE_TEST_LIBS})
add_dependencies(vecchain_example rl_kernels)
add_test(NAME vecchain_example
  COMMAND vecchain_example "${RL_KERNELS_DIR}/vecchain-gfx1100.co")
set_tests_properties(vecchain_example PROPERTIES
  LABELS integration TIMEOUT 120)

# Host cost of one replay (a plain executable; the test is a short smoke).
add_executable(replay_bench bench/replay_bench.c)
target_link_libraries(replay_bench PRIVATE ${RL_ENGINE_TEST_LIBS})
add_dependencies(replay_bench rl_kernels)
add_test(NAME replay_bench_smoke
  COMMAND replay_bench --replays 200
          --code-object "${RL_KERNELS_DIR}/vecchain-gfx1100.co")
set_tests_properties(replay_bench_smoke PROPERTIES
  LABELS integration TIMEOUT 120)

# Timed-out replays at random points of a decode step, torn down in every
# allowed order: no access to freed memory (ASan) and no race (TSan).
rl_add_unit_test(replay_timeout_test
  SOURCES unit/replay_timeout_test.c unit/decode_test_util.c
  LIBS ${RL_ENGINE_TEST_LIBS} rl_device_funnel rl_kernels_ref rl_sim
  LABELS "unit;threaded")
add_dependencies(replay_timeout_test rl_kernels)

# State hashing against memcpy (a plain executable; the test is a short
# smoke that also proves the dispatched digests equal libxxhash's generic).
add_executable(digest_bench bench/digest_bench.c)
target_link_libraries(digest_bench PRIVATE rl_base)
add_test(NAME digest_bench_smoke COMMAND digest_bench --quick)
set_tests_properties(digest_bench_smoke PROPERTIES LABELS unit TIMEOUT 120)
