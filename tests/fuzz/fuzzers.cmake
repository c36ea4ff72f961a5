# Seeds: the built code objects for the code-object parser, a vecchain
# capture written by the CLI for the capture reader.
set(RL_SEED_CAPTURE ${CMAKE_CURRENT_BINARY_DIR}/seed_vecchain.rlc)
add_custom_command(OUTPUT ${RL_SEED_CAPTURE}
  COMMAND redline capture --workload vecchain --param pos=3 -o ${RL_SEED_CAPTURE}
  DEPENDS redline rl_kernels
  COMMENT "Writing the capture-reader fuzz seed")
add_custom_target(rl_fuzz_seeds ALL DEPENDS ${RL_SEED_CAPTURE})

set(RL_FUZZ_SEEDS_fuzz_code_object
  ${RL_KERNELS_DIR}/vecchain-gfx1100.co
  ${RL_KERNELS_DIR}/vecchain-gfx1201.co
  ${RL_KERNELS_DIR}/vecchain-gfx1100-v4.co
  ${PROJECT_BINARY_DIR}/tests/unit/capture/code_object_reloc-gfx1100.co)
set(RL_FUZZ_SEEDS_fuzz_capture_reader ${RL_SEED_CAPTURE})

rl_add_fuzzer(fuzz_code_object fuzz_code_object.c rl_capture)
rl_add_fuzzer(fuzz_capture_reader fuzz_capture_reader.c rl_capture)

# PM4 decoder: the seed is a builder-made stream of every packet kind.
add_executable(pm4_fuzz_seed_gen pm4_seed_gen.c)
target_link_libraries(pm4_fuzz_seed_gen PRIVATE rl_pm4)
set(RL_SEED_PM4 ${CMAKE_CURRENT_BINARY_DIR}/seed_stream.pm4)
add_custom_command(OUTPUT ${RL_SEED_PM4}
  COMMAND pm4_fuzz_seed_gen ${RL_SEED_PM4}
  DEPENDS pm4_fuzz_seed_gen
  COMMENT "Writing the PM4-decoder fuzz seed")
add_custom_target(rl_fuzz_seed_pm4 ALL DEPENDS ${RL_SEED_PM4})
set(RL_FUZZ_SEEDS_fuzz_pm4_decode ${RL_SEED_PM4})
rl_add_fuzzer(fuzz_pm4_decode fuzz_pm4_decode.c rl_pm4)

# Behind the reader: contract, bindings, hazard plan, both lowerings and
# bounded runs on the simulator (no kernel code), for every capture that
# decodes with the integrity checks off (what a re-signed file reaches).
set(RL_SEED_DECODE ${CMAKE_CURRENT_BINARY_DIR}/seed_decode.rlc)
add_custom_command(OUTPUT ${RL_SEED_DECODE}
  COMMAND redline capture --workload decode --param pos=5 -o ${RL_SEED_DECODE}
  DEPENDS redline rl_kernels
  COMMENT "Writing the decode capture fuzz seed")
add_custom_target(rl_fuzz_seed_decode ALL DEPENDS ${RL_SEED_DECODE})
set(RL_FUZZ_SEEDS_fuzz_capture_replay ${RL_SEED_CAPTURE} ${RL_SEED_DECODE})
rl_add_fuzzer(fuzz_capture_replay fuzz_capture_replay.c rl_engine rl_capture)

# The seeds the smoke runs read: captures and the PM4 stream written above,
# the kernels' code objects and the relocation fixture (tests/unit/capture/).
add_dependencies(rl_fuzz_all rl_fuzz_seeds rl_fuzz_seed_pm4 rl_fuzz_seed_decode
  rl_kernels rl_code_object_fixtures)
