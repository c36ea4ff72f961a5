# tests/standins/drm/standin_drm.cmake — the CI stand-in for libdrm_amdgpu:
# a shared library named libdrm_amdgpu.so.1 (the real SONAME) implementing
# the subset of amdgpu.h redline's drm device loads (drm_symbols.h) over the
# simulated GPU (standin_drm_hooks.h). Built only with the tests, into its
# own directory, used only through REDLINE_DRM_LIBRARY=<path>. libdrm.so.2
# stays the system's (the loader opens it too; the device calls nothing in
# it).
set(RL_STANDIN_DRM_DIR ${CMAKE_CURRENT_LIST_DIR})
pkg_check_modules(RL_STANDIN_LIBDRM REQUIRED libdrm_amdgpu)
add_library(rl_standin_drm SHARED ${RL_STANDIN_DRM_DIR}/standin_drm.c)
set_target_properties(rl_base rl_capture rl_aql rl_pm4 rl_sim rl_kernels_ref
  PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(rl_standin_drm SYSTEM PRIVATE
  ${RL_STANDIN_LIBDRM_INCLUDE_DIRS})
target_compile_definitions(rl_standin_drm PRIVATE
  RL_STANDIN_DRM_KERNELS_DIR="${RL_KERNELS_DIR}")
# A stand-in is test code built with the product (it is installed as a
# private library): like the tests it names its headers from the root.
rl_module_headers(rl_standin_drm FOLDER tests/standins/drm)
target_link_libraries(rl_standin_drm PRIVATE rl_sim rl_kernels_ref
  Threads::Threads)
target_link_options(rl_standin_drm PRIVATE
  -Wl,--version-script=${RL_STANDIN_DRM_DIR}/standin_drm.map
  ${RL_SHARED_NO_UNDEFINED} -Wl,-Bsymbolic)
set_target_properties(rl_standin_drm PROPERTIES
  OUTPUT_NAME drm_amdgpu
  VERSION 1.0.0
  SOVERSION 1
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests/standins/drm
  LINK_DEPENDS ${RL_STANDIN_DRM_DIR}/standin_drm.map)
set(RL_STANDIN_DRM_LIBRARY
  ${CMAKE_BINARY_DIR}/tests/standins/drm/libdrm_amdgpu.so.1)
