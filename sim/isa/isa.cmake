# sim/isa/isa.cmake — rl_sim_isa: the `isa` executor of the simulated
# GPU, an interpreter of gfx11 wave32 machine code
# (sim/isa/isa_executor.h).
#
# -ffp-contract=off: every float operation must round exactly where the GPU
# instruction rounds; fused multiply-add is written as fmaf() where the ISA
# has one, and the C compiler must not fuse anything else.
rl_module_library(rl_sim_isa STATIC FOLDER sim/isa
  SOURCES
    isa_decode.c
    isa_decode_vector.c
    isa_decode_memory.c
    isa_names_gfx11.c
    isa_salu.c
    isa_sopp.c
    isa_mode.c
    isa_dpp.c
    isa_valu.c
    isa_vop.c
    isa_vop3.c
    isa_valu16.c
    isa_packed.c
    isa_divide.c
    isa_float64.c
    isa_frexp.c
    isa_image.c
    isa_mem.c
    isa_scratch.c
    isa_call.c
    isa_callscan.c
    isa_atomic.c
    isa_stale.c
    isa_permute.c
    isa_gws.c
    isa_permlane.c
    isa_program.c
    isa_executor.c
    isa_check.c
    # gfx12 (RDNA4): what the generation changes (isa_gfx12.h)
    isa_decode_gfx12.c
    isa_table_gfx12.c
    isa_exec_gfx12.c
    isa_names_gfx12.c
  EXPORT isa_executor.h isa_names.h)
target_compile_options(rl_sim_isa PRIVATE -ffp-contract=off)
target_link_libraries(rl_sim_isa PUBLIC rl_sim m Threads::Threads)
