# tests/hip.cmake — HIP without a GPU: the HIP stand-in (tests/standins/hip,
# libamdhip64.so.6 over the simulated GPU), the HIP funnel device, `redline
# capture --device hip`, the LD_PRELOAD interposer libredline_capture.so on
# an unmodified HIP program, and the hip/hipgraph shadow arms.
include(${CMAKE_CURRENT_LIST_DIR}/standins/hip/standin_hip.cmake)

# The stand-in through redline's loader, its misuse detection, and the HIP
# funnel device recording vecchain equal to the sim device.
rl_add_unit_test(hip_standin_test SOURCES unit/hip_standin_test.c
  LIBS rl_engine rl_device_funnel rl_kernels_workloads LABELS unit)
target_include_directories(hip_standin_test SYSTEM PRIVATE ${RL_HIP_INCLUDE_DIR})
target_compile_definitions(hip_standin_test PRIVATE __HIP_PLATFORM_AMD__
  RL_STANDIN_HIP_LIBRARY="${RL_STANDIN_HIP_LIBRARY}")
add_dependencies(hip_standin_test rl_standin_hip rl_kernels)
set_property(TEST hip_standin_test APPEND PROPERTY LABELS threaded)
