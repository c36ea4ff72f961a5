# Tests of rl_pm4: builders (golden encodings, poison, capacity), decoder
# (round trips, malformed classes, formatter), family tables, and the
# `redline disasm` CLI.
rl_add_unit_test(pm4_builder_test
  SOURCES unit/pm4_builder_test.c LIBS rl_pm4)
rl_add_unit_test(pm4_decode_test
  SOURCES unit/pm4_decode_test.c LIBS rl_pm4)
rl_add_unit_test(pm4_family_test
  SOURCES unit/pm4_family_test.c LIBS rl_pm4)
rl_add_unit_test(disasm_cli_test
  SOURCES integration/disasm_cli_test.c
  LIBS rl_pm4 rl_aql PkgConfig::CJSON LABELS integration)
add_dependencies(disasm_cli_test redline)
# The register tables against values transcribed from the kernel's AMD
# headers (tests/data/amd_registers/), with a negative control.
rl_add_unit_test(hw_registers_test
  SOURCES unit/hw_registers_test.c LIBS rl_pm4)
target_compile_definitions(hw_registers_test PRIVATE
  RL_AMD_REGISTERS_DIR="${PROJECT_SOURCE_DIR}/tests/data/amd_registers")
