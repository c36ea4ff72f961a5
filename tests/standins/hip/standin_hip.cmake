# tests/standins/hip/standin_hip.cmake — the CI stand-in for HIP: a shared
# library named libamdhip64.so.6 (the SONAME hip_loader.c tries first)
# implementing the subset of hip_runtime_api.h redline and the HIP test
# program use, over the simulated GPU (standin_hip.c). Built only with the
# tests (or by cmake/Install.cmake), into its own directory, selected only
# through REDLINE_HIP_LIBRARY=<path> (or, for the unmodified test program,
# its RUNPATH): installed only as a private library (LIBDIR/redline), never
# on the default search path.
set(RL_STANDIN_HIP_DIR ${CMAKE_CURRENT_LIST_DIR})
add_library(rl_standin_hip SHARED
  ${RL_STANDIN_HIP_DIR}/standin_hip.c
  ${RL_STANDIN_HIP_DIR}/standin_hip_fatbin.c
  ${RL_STANDIN_HIP_DIR}/standin_hip_graph.c)
set_target_properties(rl_base rl_capture rl_aql rl_pm4 rl_sim rl_kernels_ref
  rl_device_funnel PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(rl_standin_hip SYSTEM PRIVATE ${RL_HIP_INCLUDE_DIR})
target_compile_definitions(rl_standin_hip PRIVATE __HIP_PLATFORM_AMD__)
target_link_libraries(rl_standin_hip PRIVATE rl_device_funnel rl_sim
  rl_kernels_ref Threads::Threads)
target_link_options(rl_standin_hip PRIVATE
  -Wl,--version-script=${RL_STANDIN_HIP_DIR}/standin_hip.map
  ${RL_SHARED_NO_UNDEFINED} -Wl,-Bsymbolic)
set_target_properties(rl_standin_hip PROPERTIES
  OUTPUT_NAME amdhip64
  VERSION 6.0.0
  SOVERSION 6
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests/standins/hip
  LINK_DEPENDS ${RL_STANDIN_HIP_DIR}/standin_hip.map)
set(RL_STANDIN_HIP_LIBRARY
  ${CMAKE_BINARY_DIR}/tests/standins/hip/libamdhip64.so.6)
