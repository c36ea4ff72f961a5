# tests/isa_conformance/isa_conformance.cmake — the ISA conformance suite
# (docs/isa-conformance.md). Included from tests/isa.cmake.
if(TARGET rl_sim_isa AND TARGET rl_kernels_ref)
  set(RL_CONF_DIR ${CMAKE_CURRENT_LIST_DIR})
  # The host model (the oracle of every case) is the product's, the one the
  # oracle executor runs (sim/oracle/oracle_model.h): one copy.
  add_library(rl_test_isa_conf STATIC
    ${RL_CONF_DIR}/isa_conf_encode.c
    ${RL_CONF_DIR}/isa_host_dpp.c)
  target_include_directories(rl_test_isa_conf PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(rl_test_isa_conf PUBLIC rl_sim_oracle m)

  # The suite's sources, built four ways below (isa executor on gfx11 and
  # gfx12; under the oracle on gfx11 and gfx12).
  set(RL_CONF_SOURCES
    ${RL_CONF_DIR}/isa_conformance_test.c ${RL_CONF_DIR}/isa_conf_alu.c
    ${RL_CONF_DIR}/isa_conf_special.c ${RL_CONF_DIR}/isa_conf_vmem.c
    ${RL_CONF_DIR}/isa_conf_mode.c ${RL_CONF_DIR}/isa_conf_private.c
    ${RL_CONF_DIR}/isa_conf_lanes.c ${RL_CONF_DIR}/isa_conf_harness.c
    unit/sim/sim_test_util.c)
  rl_add_unit_test(isa_conformance_test
    SOURCES ${RL_CONF_SOURCES}
    LIBS rl_test_isa_conf rl_sim_isa rl_sim rl_capture m
    LABELS "unit;isa;conformance")
  add_dependencies(isa_conformance_test rl_kernels)

  # The same suite under the oracle executor in full mode (issue 27): the
  # oracle must agree with the isa executor on every case it can model
  # (docs/isa-conformance.md, "The oracle executor").
  rl_add_unit_test(isa_conf_oracle_suite
    SOURCES ${RL_CONF_SOURCES}
    LIBS rl_test_isa_conf rl_sim_oracle rl_sim_isa rl_sim rl_capture m
    LABELS "unit;isa;conformance;oracle")
  target_compile_definitions(isa_conf_oracle_suite PRIVATE RL_CONF_ORACLE=1)
  add_dependencies(isa_conf_oracle_suite rl_kernels)

  # The gfx12 suite under the oracle executor (issue 27): the oracle's gfx12
  # decoder and initial state against the isa executor on gfx1201.
  rl_add_unit_test(isa_conf_oracle_gfx12_suite
    SOURCES ${RL_CONF_SOURCES}
    LIBS rl_test_isa_conf rl_sim_oracle rl_sim_isa rl_sim rl_capture m
    LABELS "unit;isa;conformance;oracle")
  target_compile_definitions(isa_conf_oracle_gfx12_suite PRIVATE
    RL_CONF_ORACLE=1 RL_CONF_GFX12=1)
  add_dependencies(isa_conf_oracle_gfx12_suite rl_kernels)

  # The oracle executor's own checks and negative controls.
  rl_add_unit_test(isa_conf_oracle_test
    SOURCES ${RL_CONF_DIR}/isa_conf_oracle_test.c
            ${RL_CONF_DIR}/isa_conf_harness.c
            unit/sim/sim_test_util.c
    LIBS rl_test_isa_conf rl_sim_oracle rl_sim_isa rl_sim rl_capture m
    LABELS "unit;isa;oracle")
  add_dependencies(isa_conf_oracle_test rl_kernels)

  # The same suite over the gfx12 tables on gfx1201 (issue 15).
  rl_add_unit_test(isa_conf_gfx12_suite
    SOURCES ${RL_CONF_SOURCES}
    LIBS rl_test_isa_conf rl_sim_isa rl_sim rl_capture m
    LABELS "unit;isa;conformance")
  target_compile_definitions(isa_conf_gfx12_suite PRIVATE RL_CONF_GFX12=1)
  add_dependencies(isa_conf_gfx12_suite rl_kernels)

  if(TARGET rl_test_isa_util)
    rl_add_unit_test(isa_conf_encode_test
      SOURCES ${RL_CONF_DIR}/isa_conf_encode_test.c
      LIBS rl_test_isa_conf rl_test_isa_util
      LABELS "unit;isa;conformance")
    # gfx12-only instructions (issue 15): gfx1201 programs encoded by
    # llvm-mc-19, run on the harness, checked against the host model.
    rl_add_unit_test(isa_conf_gfx12_test
      SOURCES ${RL_CONF_DIR}/isa_conf_gfx12_test.c
              ${RL_CONF_DIR}/isa_conf_harness.c
              unit/sim/sim_test_util.c
      LIBS rl_test_isa_conf rl_test_isa_util rl_sim_isa rl_sim rl_capture m
      LABELS "unit;isa;conformance")
    add_dependencies(isa_conf_gfx12_test rl_kernels)
    # The oracle executor on gfx1201 programs assembled by llvm-mc-19: every
    # gfx12 form it decodes, with a flipped-byte negative control per form.
    rl_add_unit_test(isa_conf_oracle_gfx12_test
      SOURCES ${RL_CONF_DIR}/isa_conf_oracle_gfx12_test.c
              ${RL_CONF_DIR}/isa_conf_harness.c
              unit/sim/sim_test_util.c
      LIBS rl_test_isa_conf rl_test_isa_util rl_sim_oracle rl_sim_isa rl_sim
           rl_capture m
      LABELS "unit;isa;oracle")
    add_dependencies(isa_conf_oracle_gfx12_test rl_kernels)
  endif()
endif()

# The mutation check's mechanism (tools/mutate.sh, docs/isa-mutations.md):
# two mutations in a scratch copy, each of which must be caught. Slow (one
# scratch build of the ISA tests: 416 s seen under load 12).
find_program(RL_BASH bash)
if(RL_BASH AND TARGET isa_conformance_test)
  add_test(NAME isa_mutation_smoke
    COMMAND ${RL_BASH} ${PROJECT_SOURCE_DIR}/tools/mutate.sh
            --only add_is_sub,sext_missing)
  set_tests_properties(isa_mutation_smoke PROPERTIES
    LABELS "mutation;slow" TIMEOUT 1500)
endif()
