# The `redline disasm` CLI (the pm4/ unit tests are in tests/unit/pm4/).
rl_add_unit_test(disasm_cli_test
  SOURCES integration/disasm_cli_test.c
  LIBS rl_pm4 rl_aql PkgConfig::CJSON LABELS integration)
add_dependencies(disasm_cli_test redline)
