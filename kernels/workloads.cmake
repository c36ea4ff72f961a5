# kernels/workloads.cmake — the sample workloads, programs written against
# the recording funnel (capture/funnel.h), and their registry
# (kernels/workloads/workload.h).
add_library(rl_kernels_workloads STATIC
  workloads/workload.c
  workloads/workload_seed.c
  workloads/vecchain.c
  workloads/decode.c
  workloads/decode_buffers.c
  workloads/verify.c
  workloads/verify_buffers.c
  workloads/verify_draft.c
  workloads/verify_route.c
)
rl_module_headers(rl_kernels_workloads FOLDER kernels/workloads
  EXPORT workload.h verify.h verify_route.h)
target_link_libraries(rl_kernels_workloads PUBLIC rl_capture m)
