rl_add_unit_test(cli_test SOURCES integration/cli_test.c
  LIBS PkgConfig::CJSON LABELS integration)
add_dependencies(cli_test redline)
rl_add_unit_test(output_cli_test SOURCES integration/output_cli_test.c
  LIBS PkgConfig::CJSON LABELS integration)
add_dependencies(output_cli_test redline)
