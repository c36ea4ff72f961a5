# tests/shadow_runtimes.cmake — shadow runs whose arms go through the real
# runtimes' APIs, exercised against the stand-ins (no GPU): hip and hipgraph
# through sim/hip_sim (the HIP runtime over the simulator,
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

# 10 arms: aql and pm4 with two seeded adversarial passes each (the drm
# arm's device is not simulated: no passes).
foreach(workload vecchain decode)
  rl_add_shadow_runtime_test(shadow_runtimes_${workload}
    arms eager,hip,hipgraph,aql,pm4,drm 11 ${workload} gfx1100 --)
endforeach()
rl_add_shadow_runtime_test(shadow_runtimes_decode_adversarial
  arms eager,hip,hipgraph,aql,pm4,drm 7 decode gfx1100 --
  --hazards adversarial --seed 13)
rl_add_shadow_runtime_test(shadow_runtimes_hipflip hipflip)

# The hardware kit (tools/hardware_check.sh, docs/hardware.md) run against
# the stand-ins: every step must exit 0 and the kit end with its PASS
# verdict; the negative control (corrupt) has the ROCr stand-in corrupt one
# byte of one dispatch's output, and the verdict must name exactly the
# cross-device hash comparison and the rocr shadow.
set(RL_HW_SUFFIX_pass "")
set(RL_HW_SUFFIX_corrupt "_corrupt")
foreach(case pass corrupt)
  add_test(NAME hardware_check_standins${RL_HW_SUFFIX_${case}}
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/integration/hardware_check_test.sh
      ${PROJECT_SOURCE_DIR} ${CMAKE_BINARY_DIR} ${case})
  # Thirteen steps, twelve redline runs (eleven took 78 s under load 12 on
  # the 2-core machine).
  set_tests_properties(hardware_check_standins${RL_HW_SUFFIX_${case}}
    PROPERTIES LABELS integration TIMEOUT 600
    ENVIRONMENT "${RL_SHADOW_RUNTIME_ENV};REDLINE_HSA_LIBRARY=${RL_STANDIN_HSA_LIBRARY}")
endforeach()

# Shadow and bench on a named device (--device rocr|drm) through the
# stand-ins, with the simulated reference arm, and the faulty-GPU negative
# control (tests/integration/shadow_device_test.sh).
foreach(case rocr drm corrupt bench)
  add_test(NAME shadow_device_${case}
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/integration/shadow_device_test.sh
      $<TARGET_FILE:redline> ${case})
  set_tests_properties(shadow_device_${case} PROPERTIES
    LABELS integration TIMEOUT 300
    ENVIRONMENT "${RL_SHADOW_RUNTIME_ENV};REDLINE_HSA_LIBRARY=${RL_STANDIN_HSA_LIBRARY}")
endforeach()
