# The PM4 lowering's helpers (the unit tests are in tests/unit/pm4/ and
# tests/unit/redline/), `redline lower/replay --route pm4` in a fresh
# process, and the host-cost benchmarks. Helpers: rl_test_capture_repeat
# (a capture of N launches) and rl_test_pm4_util (lowering fixtures, over
# the vecchain capture of rl_test_record).
add_library(rl_test_capture_repeat STATIC unit/capture/capture_repeat.c)
target_link_libraries(rl_test_capture_repeat PUBLIC rl_capture)
target_include_directories(rl_test_capture_repeat PUBLIC
  ${CMAKE_CURRENT_SOURCE_DIR}/unit/capture)

add_library(rl_test_pm4_util STATIC unit/pm4/pm4_test_util.c)
target_link_libraries(rl_test_pm4_util PUBLIC
  rl_pm4 rl_test_record rl_capture rl_test_support rl_test_capture_repeat
  PkgConfig::CMOCKA)
target_compile_definitions(rl_test_pm4_util PRIVATE
  RL_KERNELS_DIR="${RL_KERNELS_DIR}")
target_include_directories(rl_test_pm4_util PUBLIC
  ${CMAKE_CURRENT_SOURCE_DIR}/unit/pm4)

# `redline lower --route pm4` and `redline replay --route pm4` in a fresh
# process, on all three targets.
rl_add_unit_test(pm4_cli_test
  SOURCES integration/pm4_cli_test.c
  LIBS PkgConfig::CJSON
  LABELS integration)
add_dependencies(pm4_cli_test redline rl_kernels)

# Host cost of one pm4 replay at 10, 100 and 1,000 launches (a plain
# executable; the test is a short smoke run).
add_executable(pm4_replay_bench bench/pm4_replay_bench.c)
target_link_libraries(pm4_replay_bench PRIVATE
  rl_engine rl_kernels_workloads rl_test_capture_repeat PkgConfig::CJSON)
add_dependencies(pm4_replay_bench rl_kernels)
add_test(NAME pm4_replay_bench_smoke
  COMMAND pm4_replay_bench --replays 20
          --code-object "${RL_KERNELS_DIR}/vecchain-gfx1100.co")
set_tests_properties(pm4_replay_bench_smoke PROPERTIES
  LABELS integration TIMEOUT 300)

# Host work per step (admit + apply + publish) on routes pm4 and aql at 4,
# 48 and 200 decode layers and at a fixed number of dynamic sites, and the
# simulator's cost per dispatch (tools/bench.sh; docs/BENCHMARKS.md). The
# test is a short smoke run (one small row, ~2 s).
add_executable(host_cost_bench bench/host_cost_bench.c)
target_link_libraries(host_cost_bench PRIVATE
  rl_engine rl_kernels_workloads rl_test_capture_repeat PkgConfig::CJSON)
add_dependencies(host_cost_bench rl_kernels)
add_test(NAME host_cost_bench_smoke
  COMMAND host_cost_bench --kernels "${RL_KERNELS_DIR}" --steps 20 --layers 1)
set_tests_properties(host_cost_bench_smoke PROPERTIES
  LABELS integration TIMEOUT 300)
