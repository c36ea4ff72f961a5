# Integration tests of the replay engine (its unit tests are in
# tests/unit/redline/): the replay/lower CLI in a fresh process, the budgets
# through the CLI, the public-API example and smoke runs of the replay and
# digest benchmarks. All read the vecchain code object rl_kernels builds
# into ${RL_KERNELS_DIR}.
set(RL_ENGINE_TEST_LIBS rl_engine rl_kernels_workloads)

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
foreach(test replay_cli_test limits_cli_test)
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

# State hashing against memcpy (a plain executable; the test is a short
# smoke that also proves the dispatched digests equal libxxhash's generic).
add_executable(digest_bench bench/digest_bench.c)
target_link_libraries(digest_bench PRIVATE rl_base)
add_test(NAME digest_bench_smoke COMMAND digest_bench --quick)
set_tests_properties(digest_bench_smoke PROPERTIES LABELS unit TIMEOUT 120)
