# Tests of capture/kernel_descriptor.c, capture/code_object*.c and
# `redline kernels`. The code-object tests read the objects rl_kernels builds
# (RL_KERNELS_DIR) and a relocation fixture built here.
rl_add_unit_test(kernel_descriptor_test
  SOURCES unit/kernel_descriptor_test.c
  LIBS rl_capture)
rl_add_unit_test(target_parse_test
  SOURCES unit/target_parse_test.c
  LIBS rl_capture)
add_dependencies(target_parse_test rl_kernels)

# code_object_reloc.hip -> a gfx1100 code object with one R_AMDGPU_RELATIVE64.
set(RL_RELOC_FIXTURE "${CMAKE_CURRENT_BINARY_DIR}/code_object_reloc-gfx1100.co")
add_custom_command(
  OUTPUT "${RL_RELOC_FIXTURE}"
  COMMAND "${RL_HIP_CLANG}" -x hip -nogpulib -nogpuinc --offload-arch=gfx1100
          --cuda-device-only --no-gpu-bundle-output -O2
          -o "${RL_RELOC_FIXTURE}"
          "${CMAKE_CURRENT_SOURCE_DIR}/unit/code_object_reloc.hip"
  DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/unit/code_object_reloc.hip"
  COMMENT "HIP gfx1100: code_object_reloc fixture"
  VERBATIM)
add_custom_target(rl_code_object_fixtures DEPENDS "${RL_RELOC_FIXTURE}")

rl_add_unit_test(code_object_test
  SOURCES unit/code_object_test.c
  LIBS rl_capture)
target_compile_definitions(code_object_test PRIVATE
  RL_RELOC_FIXTURE="${RL_RELOC_FIXTURE}")
add_dependencies(code_object_test rl_kernels rl_code_object_fixtures)

rl_add_unit_test(kernels_readelf_test
  SOURCES unit/kernels_readelf_test.c
  LIBS PkgConfig::CJSON
  LABELS integration)
add_dependencies(kernels_readelf_test rl_kernels redline)
