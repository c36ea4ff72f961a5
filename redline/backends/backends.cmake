# redline/backends/backends.cmake — rl_backends: the hardware backends and
# their runtime loaders (redline/backends/). Every runtime is loaded with
# dlopen and type-checked at build time against Debian's headers (ROCr
# hsa/hsa.h + hsa_ext_amd.h, libdrm amdgpu.h + xf86drm.h, HIP
# hip_runtime_api.h); nothing links them.
rl_module_library(rl_backends STATIC FOLDER redline/backends
  SOURCES
    dl_library.c
    hsa_loader.c
    rocr_device.c
    rocr_agents.c
    rocr_memory.c
    rocr_queue.c
    rocr_signal.c
    rocr_loader.c
    hip_loader.c
    hip_funnel.c
    hip_wait.c
    drm_loader.c
    drm_device.c
    drm_memory.c
    drm_submit.c
    doctor.c
    doctor_probe.c
  EXPORT rocr_device.h drm_device.h hip_funnel.h hip_loader.h hip_wait.h
         hip_symbols.h dl_library.h
  API doctor.h)
target_include_directories(rl_backends SYSTEM PRIVATE
  ${RL_HSA_INCLUDE_DIR} ${RL_HIP_INCLUDE_DIR} ${LIBDRM_AMDGPU_INCLUDE_DIRS})
target_compile_definitions(rl_backends PRIVATE __HIP_PLATFORM_AMD__)
target_link_libraries(rl_backends PUBLIC rl_device rl_aql rl_capture rl_base ${CMAKE_DL_LIBS})
