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
