# sim/oracle/oracle.cmake — rl_sim_oracle: the oracle executor
# (sim/oracle/oracle.h), a one-lane-at-a-time interpreter of gfx11
# machine code that checks the `isa` executor on sampled work-groups, and
# the host model of the ALU opcodes it shares with the conformance suite
# (oracle_model.h, oracle_mods.h; docs/isa-conformance.md).
#
# It links rl_sim_isa for the llvm-mc-checked mnemonic tables only
# (isa_names.h); nothing else of that folder is visible here.
# -ffp-contract=off: the model rounds where the instructions round.
rl_module_library(rl_sim_oracle STATIC FOLDER sim/oracle
  SOURCES
    oracle_model.c
    oracle_model_vint.c
    oracle_model_vfloat.c
    oracle_model_scalar.c
    oracle_model_packed.c
    oracle_model_compare.c
    oracle_model_memory.c
    oracle_mods.c
    oracle_decode.c
    oracle_decode_gfx12.c
    oracle_memory.c
    oracle_wave.c
    oracle_workgroup.c
    oracle_vmem.c
    oracle_executor.c
  EXPORT oracle.h)
target_compile_options(rl_sim_oracle PRIVATE -ffp-contract=off)
target_link_libraries(rl_sim_oracle PUBLIC rl_sim rl_sim_isa m
  Threads::Threads)
