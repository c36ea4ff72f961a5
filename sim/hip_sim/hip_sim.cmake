# sim/hip_sim/hip_sim.cmake — the HIP runtime over the simulator
# (hip_sim.h): a shared library libamdhip64.so.6 with a libamdhip64.so.5
# link beside it, in the private library directory build/lib/redline
# (installed as LIBDIR/redline by cmake/Install.cmake), never on the
# default search path: `redline run` puts that directory first in the
# program's LD_LIBRARY_PATH; tests load it by path (REDLINE_HIP_LIBRARY) or
# link against it (RUNPATH).
set(RL_HIP_SIM_DIR ${CMAKE_CURRENT_LIST_DIR})
set(RL_HIP_SIM_LIBRARY_DIR ${CMAKE_BINARY_DIR}/lib/redline)
rl_module_library(rl_hip_sim SHARED FOLDER sim/hip_sim
  SOURCES
    hip_sim.c
    hip_sim_attribute.c
    hip_sim_context.c
    hip_sim_copy.c
    hip_sim_copy2d.c
    hip_sim_device.c
    hip_sim_error.c
    hip_sim_exec.c
    hip_sim_graph.c
    hip_sim_graph_nodes.c
    hip_sim_memory.c
    hip_sim_module.c
    hip_sim_observe.c
    hip_sim_printf.c
    hip_sim_register.c
    hip_sim_rtc.c
    hip_sim_rtc_names.c
    hip_sim_stream.c
    hip_sim_texture.c
    hip_sim_cooperative.c
    hip_sim_stubs.c
    hip_sim_unsupported.c
)
set_target_properties(rl_base ${RL_CAPTURE_MODULES} rl_aql rl_pm4
  ${RL_SIM_MODULES} rl_sim_isa rl_kernels_ref rl_device_funnel PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(rl_hip_sim SYSTEM PRIVATE ${RL_HIP_INCLUDE_DIR})
target_compile_definitions(rl_hip_sim PRIVATE __HIP_PLATFORM_AMD__
  __HIP_DISABLE_CPP_FUNCTIONS__
  # hiprtc's compiler once installed (hip_sim_rtc.c).
  RL_HIPRTC_INSTALLED_HIPCC="${CMAKE_INSTALL_FULL_BINDIR}/redline-hipcc")
target_link_libraries(rl_hip_sim PRIVATE rl_device_funnel rl_sim rl_sim_isa
  rl_kernels_ref msgpackc Threads::Threads)
target_link_options(rl_hip_sim PRIVATE
  -Wl,--version-script=${RL_HIP_SIM_DIR}/hip_sim.map
  ${RL_SHARED_NO_UNDEFINED} -Wl,-Bsymbolic)
set_target_properties(rl_hip_sim PROPERTIES
  OUTPUT_NAME amdhip64
  VERSION 6.0.0
  SOVERSION 6
  LIBRARY_OUTPUT_DIRECTORY ${RL_HIP_SIM_LIBRARY_DIR}
  LINK_DEPENDS ${RL_HIP_SIM_DIR}/hip_sim.map)
# The soname Debian's HIP 5 programs ask for.
add_custom_command(TARGET rl_hip_sim POST_BUILD
  COMMAND ${CMAKE_COMMAND} -E create_symlink libamdhip64.so.6
    ${RL_HIP_SIM_LIBRARY_DIR}/libamdhip64.so.5
  VERBATIM)
set(RL_HIP_SIM_LIBRARY ${RL_HIP_SIM_LIBRARY_DIR}/libamdhip64.so.6)
# The name the tests of the former stand-in use.
set(RL_STANDIN_HIP_LIBRARY ${RL_HIP_SIM_LIBRARY})
