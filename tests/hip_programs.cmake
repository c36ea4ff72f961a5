# tests/hip_programs.cmake — ordinary HIP programs (tests/hip_programs/*.hip)
# compiled by clang-19 for gfx1100 and gfx1151 and run by the `isa`
# executor through the capture funnel, each checked on the host against a
# CPU reference (docs/hip-programs.md). Two of them are also captured and
# replayed by `redline shadow --executor isa`.
#
# Code objects: ${RL_HIP_PROGRAMS_DIR}/<name>-<target>.co at -O2, plus
# scan-gfx1100-O1.co and int64-gfx1100-Os.co, which the compiler lays out
# differently, and softmax-gfx1100-ftz.co (-fgpu-flush-denormals-to-zero:
# s_denorm_mode around the division) (-O0 is not built: it spills to scratch, which the executor
# does not model). Same flags as kernels/kernels.cmake.
set(RL_HIP_PROGRAMS_SRC ${CMAKE_CURRENT_SOURCE_DIR}/hip_programs)
set(RL_HIP_PROGRAMS_DIR ${CMAKE_BINARY_DIR}/tests/hip_programs)
set(RL_HIP_PROGRAMS transpose reduce softmax dot scan int64 histogram bitonic
    gemm layernorm)
set(RL_HIP_PROGRAM_OUTPUTS)

# rl_hip_program_build(NAME TARGET SUFFIX FLAGS...)
function(rl_hip_program_build name target suffix)
  set(output "${RL_HIP_PROGRAMS_DIR}/${name}-${target}${suffix}.co")
  add_custom_command(
    OUTPUT "${output}"
    COMMAND "${RL_HIP_CLANG}" -x hip -nogpulib -nogpuinc
            --offload-arch=${target} --cuda-device-only --no-gpu-bundle-output
            ${ARGN} -o "${output}" "${RL_HIP_PROGRAMS_SRC}/${name}.hip"
    DEPENDS "${RL_HIP_PROGRAMS_SRC}/${name}.hip"
            "${RL_HIP_PROGRAMS_SRC}/hip_device.h"
    COMMENT "HIP ${target} ${ARGN}: ${output}"
    VERBATIM)
  set(RL_HIP_PROGRAM_OUTPUTS ${RL_HIP_PROGRAM_OUTPUTS} "${output}"
      PARENT_SCOPE)
endfunction()

if(TARGET rl_sim_isa AND RL_HIP_CLANG)
  file(MAKE_DIRECTORY "${RL_HIP_PROGRAMS_DIR}")
  foreach(name IN LISTS RL_HIP_PROGRAMS)
    foreach(target gfx1100 gfx1151)
      rl_hip_program_build(${name} ${target} "" -O2)
    endforeach()
  endforeach()
  rl_hip_program_build(scan gfx1100 -O1 -O1)
  rl_hip_program_build(int64 gfx1100 -Os -Os)
  # Denormals flushed: the float division runs between s_denorm_mode 15
  # and s_denorm_mode 12 (MODE changed per wave).
  rl_hip_program_build(softmax gfx1100 -ftz -O2 -fgpu-flush-denormals-to-zero)
  add_custom_target(rl_hip_programs ALL DEPENDS ${RL_HIP_PROGRAM_OUTPUTS})

  rl_add_unit_test(hip_programs_test
    SOURCES hip_programs/hip_programs_test.c
            hip_programs/hip_programs_harness.c
            hip_programs/hip_programs_ref.c
    LIBS rl_sim_isa rl_device_funnel rl_sim rl_capture m
    LABELS "integration;isa")
  # The references round where the kernels round: fmaf where the kernel
  # writes __builtin_fmaf, nothing fused elsewhere.
  target_compile_options(hip_programs_test PRIVATE -ffp-contract=off)
  target_compile_definitions(hip_programs_test PRIVATE
    RL_HIP_PROGRAMS_DIR="${RL_HIP_PROGRAMS_DIR}")
  add_dependencies(hip_programs_test rl_hip_programs redline)
  # The decoder against llvm-objdump-19 on the corpus too.
  if(TARGET isa_objdump_test)
    add_dependencies(isa_objdump_test rl_hip_programs)
    target_compile_definitions(isa_objdump_test PRIVATE
      RL_HIP_PROGRAMS_DIR="${RL_HIP_PROGRAMS_DIR}")
  endif()
endif()
