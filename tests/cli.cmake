rl_add_unit_test(cli_test SOURCES integration/cli_test.c
  LIBS PkgConfig::CJSON LABELS integration)
add_dependencies(cli_test redline)

# Number parsing and exit codes per command, in fresh processes, each under
# `timeout` (tests/integration/cli_exit_codes_test.c).
rl_add_unit_test(cli_exit_codes_test
  SOURCES integration/cli_exit_codes_test.c
  LIBS rl_capture LABELS integration)
add_dependencies(cli_exit_codes_test redline rl_kernels)
rl_add_unit_test(output_cli_test SOURCES integration/output_cli_test.c
  LIBS PkgConfig::CJSON LABELS integration)
add_dependencies(output_cli_test redline)

# A report that cannot reach standard output (/dev/full, a closed
# descriptor) fails inspect, replay --json and shadow with exit 3; onto
# /dev/null they pass (tests/integration/stdout_errors_cli_test.sh).
add_test(NAME stdout_errors_cli_test
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/integration/stdout_errors_cli_test.sh
    $<TARGET_FILE:redline> ${CMAKE_CURRENT_BINARY_DIR}/stdout_errors_cli_test)
set_tests_properties(stdout_errors_cli_test PROPERTIES
  LABELS integration TIMEOUT 120
  ENVIRONMENT "REDLINE_KERNELS_DIR=${RL_KERNELS_DIR}")

# `redline infer` over step captures step_infer_test writes
# (tests/integration/infer_cli_test.sh, docs/binding-inference.md).
add_test(NAME infer_cli_test
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/integration/infer_cli_test.sh
    $<TARGET_FILE:redline> $<TARGET_FILE:step_infer_test>
    ${CMAKE_CURRENT_BINARY_DIR}/infer_cli_test)
set_tests_properties(infer_cli_test PROPERTIES
  LABELS integration TIMEOUT 300
  ENVIRONMENT "REDLINE_KERNELS_DIR=${RL_KERNELS_DIR}")
