# tests/rocr.cmake — the rocr device (redline/backends/rocr_device.h) and
# `redline doctor` against the ROCr stand-in (tests/standins/hsa), plus the
# stand-in's own misuse detection. Nothing here needs a GPU: the stand-in
# runs the simulated device behind the real HSA API.
include(${CMAKE_CURRENT_LIST_DIR}/standins/hsa/standin_hsa.cmake)

# The rocr device's code is compiled against the real headers; the tests
# that include hsa_loader.h need them too.
function(rl_rocr_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS;LABELS" ${ARGN})
  rl_add_unit_test(${name} SOURCES ${ARG_SOURCES} LIBS ${ARG_LIBS}
    LABELS ${ARG_LABELS})
  target_include_directories(${name} SYSTEM PRIVATE ${RL_HSA_INCLUDE_DIR})
  target_compile_definitions(${name} PRIVATE
    RL_STANDIN_HSA_LIBRARY="${RL_STANDIN_HSA_LIBRARY}")
  add_dependencies(${name} rl_standin_hsa)
endfunction()

# The stand-in's misuse detection and the rocr device in-process are unit
# tests (tests/unit/redline/backends/).

# `redline doctor` and `redline replay --device rocr` in fresh processes:
# exit codes, messages, results byte-identical to the sim device's.
rl_rocr_test(rocr_cli_test SOURCES integration/rocr_cli_test.c
  LIBS rl_base rl_capture LABELS integration)
add_dependencies(rocr_cli_test redline rl_kernels)
set_property(TEST rocr_cli_test APPEND PROPERTY LABELS threaded)
