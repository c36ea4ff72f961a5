# kernels/kernels.cmake — compiles every kernels/*.hip into one code object
# per target: ${RL_KERNELS_DIR}/<name>-<target>.co (code object v5, the
# LLVM 19 default) for each of RL_KERNEL_TARGETS, plus
# <name>-gfx1100-v4.co (code object v4) so both metadata flavours are
# covered. All of them hang off the `rl_kernels` target (part of ALL).
#
# The sources are self-contained device code (no HIP headers, no device
# libraries): -nogpulib -nogpuinc. --cuda-device-only with
# --no-gpu-bundle-output gives a plain ELF instead of an offload bundle.
# The output is bit-reproducible (research/debian_probe.md, section 2).
file(GLOB RL_KERNEL_SOURCES CONFIGURE_DEPENDS
  "${CMAKE_CURRENT_SOURCE_DIR}/*.hip")

set(RL_KERNEL_OUTPUTS)

# rl_kernel_build(SOURCE OUTPUT TARGET [EXTRA_FLAGS...])
function(rl_kernel_build source output target)
  add_custom_command(
    OUTPUT "${output}"
    COMMAND "${RL_HIP_CLANG}" -x hip -nogpulib -nogpuinc
            --offload-arch=${target} --cuda-device-only --no-gpu-bundle-output
            -O2 ${ARGN} -o "${output}" "${source}"
    DEPENDS "${source}"
    COMMENT "HIP ${target} ${ARGN}: ${output}"
    VERBATIM)
endfunction()

file(MAKE_DIRECTORY "${RL_KERNELS_DIR}")
foreach(source IN LISTS RL_KERNEL_SOURCES)
  get_filename_component(name "${source}" NAME_WE)
  foreach(target IN LISTS RL_KERNEL_TARGETS)
    set(output "${RL_KERNELS_DIR}/${name}-${target}.co")
    rl_kernel_build("${source}" "${output}" ${target})
    list(APPEND RL_KERNEL_OUTPUTS "${output}")
  endforeach()
  set(output "${RL_KERNELS_DIR}/${name}-gfx1100-v4.co")
  rl_kernel_build("${source}" "${output}" gfx1100 -mcode-object-version=4)
  list(APPEND RL_KERNEL_OUTPUTS "${output}")
endforeach()

add_custom_target(rl_kernels ALL DEPENDS ${RL_KERNEL_OUTPUTS})
