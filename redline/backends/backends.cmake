# redline/backends/backends.cmake — rl_backends: the hardware backends and
# their runtime loaders (redline/backends/). Every runtime is loaded with
# dlopen and type-checked at build time against Debian's headers (ROCr
# hsa/hsa.h + hsa_ext_amd.h, libdrm amdgpu.h + xf86drm.h, HIP
# hip_runtime_api.h); nothing links them.
add_library(rl_backends STATIC
  ${CMAKE_CURRENT_LIST_DIR}/dl_library.c
  ${CMAKE_CURRENT_LIST_DIR}/hsa_loader.c
  ${CMAKE_CURRENT_LIST_DIR}/rocr_device.c
  ${CMAKE_CURRENT_LIST_DIR}/rocr_agents.c
  ${CMAKE_CURRENT_LIST_DIR}/rocr_memory.c
  ${CMAKE_CURRENT_LIST_DIR}/rocr_queue.c
  ${CMAKE_CURRENT_LIST_DIR}/rocr_signal.c
  ${CMAKE_CURRENT_LIST_DIR}/rocr_loader.c
  ${CMAKE_CURRENT_LIST_DIR}/hip_loader.c
  ${CMAKE_CURRENT_LIST_DIR}/hip_funnel.c
  ${CMAKE_CURRENT_LIST_DIR}/hip_wait.c
  ${CMAKE_CURRENT_LIST_DIR}/drm_loader.c
  ${CMAKE_CURRENT_LIST_DIR}/drm_device.c
  ${CMAKE_CURRENT_LIST_DIR}/drm_memory.c
  ${CMAKE_CURRENT_LIST_DIR}/drm_submit.c
  ${CMAKE_CURRENT_LIST_DIR}/doctor.c
  ${CMAKE_CURRENT_LIST_DIR}/doctor_probe.c
)
rl_module_headers(rl_backends FOLDER redline/backends
  EXPORT rocr_device.h drm_device.h hip_funnel.h hip_loader.h hip_wait.h
         hip_symbols.h dl_library.h
  API doctor.h)
target_include_directories(rl_backends SYSTEM PRIVATE
  ${RL_HSA_INCLUDE_DIR} ${RL_HIP_INCLUDE_DIR} ${LIBDRM_AMDGPU_INCLUDE_DIRS})
target_compile_definitions(rl_backends PRIVATE __HIP_PLATFORM_AMD__)
target_link_libraries(rl_backends PUBLIC rl_device rl_aql rl_capture rl_base ${CMAKE_DL_LIBS})
