# kernels/ref.cmake — rl_kernels_ref: the `ref` executor of the simulated
# GPU, C reference implementations of the kernels in kernels/*.hip
# (kernels/ref/ref_executor.h).
#
# -ffp-contract=off: the references must round exactly where the compiled
# kernels round; a fused multiply-add is written as fmaf() where the ISA
# uses one, and the C compiler must not fuse anything else.
add_library(rl_kernels_ref STATIC
  ref/ref_executor.c
  ref/vecchain_ref.c
  ref/decode_ref.c
  ref/verify_ref.c
  ref/capture_copy_ref.c
)
rl_module_headers(rl_kernels_ref FOLDER kernels/ref EXPORT ref_executor.h)
target_compile_options(rl_kernels_ref PRIVATE -ffp-contract=off)
# rl_sim provides the executor interface and the rl_sim_wg_* accessors the
# references call, and the float model (sim_math.h) they share with the ISA
# executor.
target_link_libraries(rl_kernels_ref PUBLIC rl_sim m)
