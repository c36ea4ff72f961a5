# sim/isa/isa.cmake — rl_sim_isa: the `isa` executor of the simulated
# GPU, an interpreter of gfx11 wave32 machine code
# (sim/isa/isa_executor.h).
#
# -ffp-contract=off: every float operation must round exactly where the GPU
# instruction rounds; fused multiply-add is written as fmaf() where the ISA
# has one, and the C compiler must not fuse anything else.
add_library(rl_sim_isa STATIC
  ${CMAKE_CURRENT_LIST_DIR}/isa_decode.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_decode_vector.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_decode_memory.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_names_gfx11.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_salu.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_sopp.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_mode.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_dpp.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_valu.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_vop.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_vop3.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_valu16.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_packed.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_divide.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_float64.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_frexp.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_image.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_mem.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_scratch.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_call.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_callscan.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_atomic.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_stale.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_permute.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_gws.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_permlane.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_program.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_executor.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_check.c
  # gfx12 (RDNA4): what the generation changes (isa_gfx12.h)
  ${CMAKE_CURRENT_LIST_DIR}/isa_decode_gfx12.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_table_gfx12.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_exec_gfx12.c
  ${CMAKE_CURRENT_LIST_DIR}/isa_names_gfx12.c
)
rl_module_headers(rl_sim_isa FOLDER sim/isa
  EXPORT isa_executor.h isa_names.h)
target_compile_options(rl_sim_isa PRIVATE -ffp-contract=off)
target_link_libraries(rl_sim_isa PUBLIC rl_sim m Threads::Threads)
