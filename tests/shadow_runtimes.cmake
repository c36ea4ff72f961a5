# tests/shadow_runtimes.cmake — shadow runs whose arms go through the real
# runtimes' APIs, exercised against the stand-ins (no GPU): hip and hipgraph
# through redline/hip_sim (the HIP runtime over the simulator,
# REDLINE_HIP_LIBRARY) and the
# retained drm route through the libdrm_amdgpu stand-in (tests/standins/drm,
# REDLINE_DRM_LIBRARY; the script makes the render node). Every case must be
# byte-identical with eager; hipflip is the negative control in the HIP arms
# and the "HIP unavailable" exit 8. Included after drm.cmake and hip.cmake,
# which build the stand-ins.
set(RL_SHADOW_RUNTIME_ENV
  "REDLINE_KERNELS_DIR=${RL_KERNELS_DIR}"
  "REDLINE_HIP_LIBRARY=${RL_STANDIN_HIP_LIBRARY}"
  "REDLINE_DRM_LIBRARY=${RL_STANDIN_DRM_LIBRARY}")

# rl_add_shadow_runtime_test(NAME ARGS...)
function(rl_add_shadow_runtime_test name)
  add_test(NAME ${name}
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/integration/shadow_cli_test.sh
      $<TARGET_FILE:redline> ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS integration TIMEOUT 300
    ENVIRONMENT "${RL_SHADOW_RUNTIME_ENV}")
endfunction()

foreach(workload vecchain decode)
  rl_add_shadow_runtime_test(shadow_runtimes_${workload}
    arms eager,hip,hipgraph,aql,pm4,drm 13 ${workload} gfx1100 --)
endforeach()
rl_add_shadow_runtime_test(shadow_runtimes_decode_adversarial
  arms eager,hip,hipgraph,aql,pm4,drm 7 decode gfx1100 --
  --hazards adversarial --seed 13)
rl_add_shadow_runtime_test(shadow_runtimes_hipflip hipflip)

# The hardware kit (tools/hardware_check.sh, docs/hardware.md) run once
# against the stand-ins: every step must exit 0 (the kit exits 1
# otherwise). ROCr is the HSA stand-in, the render node an empty file.
set(RL_HARDWARE_CHECK_DIR ${CMAKE_CURRENT_BINARY_DIR}/hardware_check)
file(MAKE_DIRECTORY ${RL_HARDWARE_CHECK_DIR})
file(TOUCH ${RL_HARDWARE_CHECK_DIR}/renderD128)
add_test(NAME hardware_check_standins
  COMMAND sh ${PROJECT_SOURCE_DIR}/tools/hardware_check.sh ${CMAKE_BINARY_DIR}
    ${RL_HARDWARE_CHECK_DIR}/report.json)
# Eleven redline runs: 78 s seen under load 12 on the 2-core machine.
set_tests_properties(hardware_check_standins PROPERTIES
  LABELS integration TIMEOUT 600
  ENVIRONMENT "${RL_SHADOW_RUNTIME_ENV};REDLINE_HSA_LIBRARY=${RL_STANDIN_HSA_LIBRARY};REDLINE_DRM_RENDER_NODE=${RL_HARDWARE_CHECK_DIR}/renderD128")
