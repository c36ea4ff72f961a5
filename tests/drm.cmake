# tests/drm.cmake — the drm device (redline/backends/drm_device.h), route
# drm and `redline doctor` against the libdrm_amdgpu stand-in
# (tests/standins/drm), plus the stand-in's own misuse detection. Nothing
# here needs a GPU: the stand-in runs the simulated device behind the real
# libdrm_amdgpu API.
include(${CMAKE_CURRENT_LIST_DIR}/standins/drm/standin_drm.cmake)

function(rl_drm_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS;LABELS" ${ARGN})
  rl_add_unit_test(${name} SOURCES ${ARG_SOURCES} LIBS ${ARG_LIBS}
    LABELS ${ARG_LABELS})
  target_include_directories(${name} SYSTEM PRIVATE
    ${RL_STANDIN_LIBDRM_INCLUDE_DIRS})
  target_compile_definitions(${name} PRIVATE
    RL_STANDIN_DRM_LIBRARY="${RL_STANDIN_DRM_LIBRARY}")
  add_dependencies(${name} rl_standin_drm)
  set_property(TEST ${name} APPEND PROPERTY LABELS threaded)
endfunction()

# The stand-in's misuse detection is a unit test (tests/unit/redline/backends/).

# `redline doctor` and `redline replay --device drm --route drm` in fresh
# processes: exit codes, messages, regions equal to the sim's route pm4.
rl_drm_test(drm_cli_test SOURCES integration/drm_cli_test.c
  LIBS rl_base LABELS integration)
add_dependencies(drm_cli_test redline rl_kernels)
