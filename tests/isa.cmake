# Tests of the `isa` executor (redline/sim/isa/): the decoder against the
# compiler (llvm-mc-19 samples, llvm-objdump-19 listings of every kernel)
# and every kernel with a reference implementation run by the ISA
# interpreter against the `ref` executor.
find_program(RL_LLVM_MC NAMES llvm-mc llvm-mc-19
  HINTS "${RL_LLVM_ROOT}/bin" NO_DEFAULT_PATH)
find_program(RL_LLVM_OBJDUMP NAMES llvm-objdump llvm-objdump-19
  HINTS "${RL_LLVM_ROOT}/bin" NO_DEFAULT_PATH)

if(TARGET rl_sim_isa AND RL_LLVM_MC AND RL_LLVM_OBJDUMP)
  add_library(rl_test_isa_util STATIC unit/isa_test_util.c)
  target_include_directories(rl_test_isa_util PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(rl_test_isa_util PUBLIC PkgConfig::CMOCKA)
  target_compile_definitions(rl_test_isa_util PRIVATE
    RL_LLVM_MC="${RL_LLVM_MC}" RL_LLVM_OBJDUMP="${RL_LLVM_OBJDUMP}")

  rl_add_unit_test(isa_decode_test
    SOURCES unit/isa_decode_test.c
    LIBS rl_sim_isa rl_test_isa_util)

  add_library(rl_test_isa_snippet STATIC unit/isa_snippet.c)
  target_include_directories(rl_test_isa_snippet PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(rl_test_isa_snippet PUBLIC rl_sim_isa rl_sim
                        rl_test_isa_util PkgConfig::CMOCKA)

  rl_add_unit_test(isa_literal_test
    SOURCES unit/isa_literal_test.c
    LIBS rl_test_isa_snippet m)

  foreach(test isa_divide_test isa_valu16_test isa_atomic_test
          isa_float64_test)
    rl_add_unit_test(${test}
      SOURCES unit/${test}.c
      LIBS rl_test_isa_snippet m)
  endforeach()

  rl_add_unit_test(isa_names_test
    SOURCES unit/isa_names_test.c
    LIBS rl_sim_isa rl_test_isa_util)
  target_compile_definitions(isa_names_test PRIVATE
    RL_ISA_NAMES_DATA="${PROJECT_SOURCE_DIR}/tests/data/isa_names_gfx11.txt")

  # gfx12 (issue 15): the gfx12 decoder and tables against llvm-mc-19.
  rl_add_unit_test(isa_gfx12_test
    SOURCES unit/isa_gfx12_test.c
    LIBS rl_sim_isa rl_test_isa_util)
  target_compile_definitions(isa_gfx12_test PRIVATE
    RL_ISA_NAMES_GFX12_DATA="${PROJECT_SOURCE_DIR}/tests/data/isa_names_gfx12.txt")

  rl_add_unit_test(isa_check_test
    SOURCES unit/isa_check_test.c
    LIBS rl_sim_isa rl_sim rl_test_isa_util)
  add_dependencies(isa_check_test rl_kernels redline)

  rl_add_unit_test(isa_coverage_test
    SOURCES unit/isa_coverage_test.c
    LIBS rl_sim_isa)
  target_compile_definitions(isa_coverage_test PRIVATE
    RL_ISA_COVERAGE_DOC="${PROJECT_SOURCE_DIR}/docs/isa-coverage.md")

  rl_add_unit_test(isa_objdump_test
    SOURCES unit/isa_objdump_test.c
    LIBS rl_sim_isa rl_test_isa_util rl_capture)
  add_dependencies(isa_objdump_test rl_kernels)
endif()

if(TARGET rl_sim_isa AND TARGET rl_kernels_ref AND TARGET rl_kernels_workloads)
  rl_add_unit_test(isa_executor_test
    SOURCES unit/isa_executor_test.c unit/sim_test_util.c
    LIBS rl_sim_isa rl_kernels_ref rl_kernels_workloads rl_device_funnel
         rl_sim rl_capture m)
  add_dependencies(isa_executor_test rl_kernels)
  set_property(TEST isa_executor_test APPEND PROPERTY LABELS threaded)
endif()

# The throughput benchmark (a plain executable, not a test):
#   isa_bench [kernels_dir] [elements] [repetitions]
if(TARGET rl_sim_isa)
  add_executable(isa_bench bench/isa_bench.c)
  target_link_libraries(isa_bench PRIVATE rl_sim_isa rl_device_funnel rl_sim
                        rl_capture m)
  target_compile_definitions(isa_bench PRIVATE
    RL_KERNELS_DIR="${RL_KERNELS_DIR}")
  add_dependencies(isa_bench rl_kernels)
endif()

# The conformance suite (tests/isa_conformance/): every opcode of the
# executor's tables against an independent host model, and the suite's
# instruction encoder against llvm-mc-19. docs/isa-conformance.md.
include(${CMAKE_CURRENT_LIST_DIR}/isa_conformance/isa_conformance.cmake
        OPTIONAL)
