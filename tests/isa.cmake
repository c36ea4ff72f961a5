# The `isa` executor's test helpers (its unit tests are in
# tests/unit/sim/isa/): rl_test_isa_util (llvm-mc-19 / llvm-objdump-19) and
# rl_test_isa_snippet, shared with the conformance suite; the throughput
# benchmark; the conformance suite.
find_program(RL_LLVM_MC NAMES llvm-mc llvm-mc-19
  HINTS "${RL_LLVM_ROOT}/bin" NO_DEFAULT_PATH)
find_program(RL_LLVM_OBJDUMP NAMES llvm-objdump llvm-objdump-19
  HINTS "${RL_LLVM_ROOT}/bin" NO_DEFAULT_PATH)

if(TARGET rl_sim_isa AND RL_LLVM_MC AND RL_LLVM_OBJDUMP)
  add_library(rl_test_isa_util STATIC unit/sim/isa/isa_test_util.c)
  target_include_directories(rl_test_isa_util PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(rl_test_isa_util PUBLIC rl_sim_isa PkgConfig::CMOCKA)
  target_compile_definitions(rl_test_isa_util PRIVATE
    RL_LLVM_MC="${RL_LLVM_MC}" RL_LLVM_OBJDUMP="${RL_LLVM_OBJDUMP}")

  add_library(rl_test_isa_snippet STATIC unit/sim/isa/isa_snippet.c)
  target_include_directories(rl_test_isa_snippet PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(rl_test_isa_snippet PUBLIC rl_sim_isa rl_sim
                        rl_test_isa_util PkgConfig::CMOCKA)
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
