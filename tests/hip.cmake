# tests/hip.cmake — HIP without a GPU: the HIP runtime over the simulator
# (sim/hip_sim, libamdhip64.so.6), the HIP funnel device, `redline
# capture --device hip` and the LD_PRELOAD interposer libredline_capture.so
# on an unmodified HIP program. The hip/hipgraph shadow arms are tested in
# shadow_runtimes.cmake.

# The stand-in through redline's loader, its misuse detection, and the HIP
# funnel device recording vecchain: tests/unit/redline/backends/hip_standin_test.c.

# The unmodified HIP program, linked against the stand-in's SONAME (its
# RUNPATH finds the stand-in; REDLINE_HIP_LIBRARY points the interposer at
# the same file).
add_executable(hip_app standins/hip/hip_app.c)
target_include_directories(hip_app SYSTEM PRIVATE ${RL_HIP_INCLUDE_DIR})
target_compile_definitions(hip_app PRIVATE __HIP_PLATFORM_AMD__)
target_link_libraries(hip_app PRIVATE rl_hip_sim PkgConfig::XXHASH)

# The same program the way clang compiles a triple-chevron HIP program: a fat
# binary (offload bundle assembled at build time around the vecchain code
# object) registered from a constructor, launched with hipLaunchKernel.
set(RL_CHEVRON_CODE_OBJECT ${RL_KERNELS_DIR}/vecchain-gfx1100.co)
add_executable(hip_app_chevron standins/hip/hip_app_chevron.c)
target_include_directories(hip_app_chevron SYSTEM PRIVATE ${RL_HIP_INCLUDE_DIR})
target_compile_definitions(hip_app_chevron PRIVATE __HIP_PLATFORM_AMD__
  RL_CHEVRON_CODE_OBJECT="${RL_CHEVRON_CODE_OBJECT}")
target_link_libraries(hip_app_chevron PRIVATE rl_hip_sim PkgConfig::XXHASH)
add_dependencies(hip_app_chevron rl_kernels)
set_source_files_properties(standins/hip/hip_app_chevron.c PROPERTIES
  OBJECT_DEPENDS ${RL_CHEVRON_CODE_OBJECT})

# LD_PRELOAD=libredline_capture.so on hip_app (and hip_app_chevron), replayed on the sim (aql and
# pm4) against the program's own results. Skipped under sanitizers: the
# ASan runtime must come first in the initial library list, which the
# interposer (and the uninstrumented way the test launches it) cannot
# guarantee.
if(NOT RL_SANITIZE)
  add_test(NAME hip_interposer_test
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/standins/hip/interposer_test.sh
      $<TARGET_FILE:redline> $<TARGET_FILE:hip_app>
      $<TARGET_FILE:redline_capture> ${RL_STANDIN_HIP_LIBRARY}
      ${RL_KERNELS_DIR}/vecchain-gfx1100.co
      ${CMAKE_CURRENT_BINARY_DIR}/hip_interposer_test
      $<TARGET_FILE:hip_app_chevron>
      ${RL_STANDIN_HSA_LIBRARY} ${RL_STANDIN_DRM_LIBRARY})
  add_dependencies(hip_app rl_standin_hsa rl_standin_drm)
  set_tests_properties(hip_interposer_test PROPERTIES
    LABELS "integration" TIMEOUT 300)
  # `redline run --capture --trace` keeps existing outputs as the output
  # writer's rules say: a bad --window, a failed write, a symbolic link, a
  # FIFO, /dev/null, a forked child (tests/integration/run_outputs_cli_test.sh).
  add_test(NAME run_outputs_cli_test
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/integration/run_outputs_cli_test.sh
      $<TARGET_FILE:redline> $<TARGET_FILE:hip_app>
      ${RL_KERNELS_DIR}/vecchain-gfx1100.co
      ${CMAKE_CURRENT_BINARY_DIR}/run_outputs_cli_test)
  set_tests_properties(run_outputs_cli_test PROPERTIES
    LABELS "integration" TIMEOUT 300)
  # `redline run --hazards/--seed/--cache-model/--max-work-items/
  # --max-dispatches` reach the simulator under the HIP runtime
  # (tests/integration/run_sim_options_test.sh; a budget of one work-item
  # makes the program fail: the negative control).
  add_test(NAME run_sim_options_cli_test
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/integration/run_sim_options_test.sh
      $<TARGET_FILE:redline> $<TARGET_FILE:hip_app>
      ${RL_KERNELS_DIR}/vecchain-gfx1100.co)
  set_tests_properties(run_sim_options_cli_test PROPERTIES
    LABELS "integration" TIMEOUT 300)
endif()
