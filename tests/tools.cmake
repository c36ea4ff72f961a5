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

# The manual pages and bash completion generated at build time match the
# text of `redline help COMMAND` (groff renders them; bash runs the
# completion), with negative controls (tests/tools/help_docs_test.sh).
add_test(NAME help_docs_test
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tools/help_docs_test.sh
          $<TARGET_FILE:redline> ${CMAKE_BINARY_DIR}/man
          ${CMAKE_BINARY_DIR}/completion/redline)
set_tests_properties(help_docs_test PROPERTIES LABELS unit TIMEOUT 600)

# Every option shared by several commands has one spelling and one value
# form in `redline help COMMAND` (--target only as the documented alias of
# --processor), with negative controls (tests/tools/help_options_test.sh).
add_test(NAME help_options_test
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tools/help_options_test.sh
          $<TARGET_FILE:redline>)
set_tests_properties(help_options_test PROPERTIES LABELS unit TIMEOUT 60)

# `--trace` files follow the trace-event format Perfetto opens
# (tests/tools/trace_check.py, with negative controls).
find_program(RL_TRACE_PYTHON3 python3 REQUIRED)
add_test(NAME trace_cli_test
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tools/trace_cli_test.sh
          $<TARGET_FILE:redline> ${RL_TRACE_PYTHON3})
set_tests_properties(trace_cli_test PROPERTIES LABELS integration TIMEOUT 300)

# The benchmark plots (tools/plot_host_cost.sh, gnuplot) from the JSON of a
# short host_cost_bench run, and the refusal of JSON that is not it.
if(TARGET host_cost_bench)
  add_test(NAME plot_test
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tools/plot_test.sh
            $<TARGET_FILE:host_cost_bench> ${RL_KERNELS_DIR})
  set_tests_properties(plot_test PROPERTIES LABELS integration TIMEOUT 300)
endif()

# The ISA throughput table of docs/BENCHMARKS.md (tools/bench_isa.sh): a
# decode row per checks setting with a count and rates, and its refusals
# (tests/tools/bench_isa_test.sh).
add_test(NAME bench_isa_test
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tools/bench_isa_test.sh
          ${PROJECT_BINARY_DIR})
set_tests_properties(bench_isa_test PROPERTIES LABELS integration TIMEOUT 300)
