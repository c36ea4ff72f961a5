# Developer tools built with the tests: capture_mutate damages capture files
# for the reliability sweep (tools/reliability_sweep.sh), which CI runs on a
# small sample (label integration); docs/reliability.md has a full run.
add_executable(capture_mutate tools/capture_mutate.c)
target_link_libraries(capture_mutate PRIVATE rl_capture PkgConfig::XXHASH)
add_test(NAME reliability_sweep_smoke
  COMMAND ${PROJECT_SOURCE_DIR}/tools/reliability_sweep.sh -n 4
          -b ${PROJECT_BINARY_DIR})
set_tests_properties(reliability_sweep_smoke PROPERTIES
  LABELS integration TIMEOUT 600)
