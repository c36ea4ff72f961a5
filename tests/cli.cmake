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

# The status -> exit code mapping (tools/exit_code.h) against docs/cli.md.
rl_add_unit_test(exit_code_test
  SOURCES unit/exit_code_test.c ${PROJECT_SOURCE_DIR}/tools/exit_code.c
  LIBS rl_base)
target_compile_definitions(exit_code_test PRIVATE
  RL_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
