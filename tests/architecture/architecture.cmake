# tests/architecture/architecture.cmake — the layering holds.
#
# architecture_layers: every #include "..." of the product tree against the
# layering in the top-level CMakeLists.txt (check_layers.py, ~1 s).
# architecture_layers_negative_control: the same check on a copy of the tree
# with one injected back edge must fail on exactly that edge.
# architecture_header_*: a consumer of rl_shadow (the top library; it links
# every module below it) compiles with exactly the include directories it
# is given: exported headers compile, private headers of other modules are
# not found (cmake/Modules.cmake). The exported ones are the positive
# control that the flags themselves work; each private one has a negative
# control (*_reachable_from_root) showing it compiles once the project
# root is on the path, as it was for every target before.
find_program(RL_ARCH_PYTHON3 python3 REQUIRED)
set(RL_ARCH_DIR ${CMAKE_CURRENT_LIST_DIR})

add_test(NAME architecture_layers
  COMMAND ${RL_ARCH_PYTHON3} ${RL_ARCH_DIR}/check_layers.py
          --root ${PROJECT_SOURCE_DIR})
add_test(NAME architecture_layers_negative_control
  COMMAND ${RL_ARCH_PYTHON3} ${RL_ARCH_DIR}/check_layers.py
          --negative-control --root ${PROJECT_SOURCE_DIR})
set_tests_properties(architecture_layers architecture_layers_negative_control
  PROPERTIES LABELS "unit;architecture" TIMEOUT 120)

set(RL_ARCH_CONSUMER_INCLUDES
  "$<TARGET_PROPERTY:rl_shadow,INTERFACE_INCLUDE_DIRECTORIES>")
# rl_arch_probe(<name> <header> PUBLIC|PRIVATE)
function(rl_arch_probe name header visibility)
  add_test(NAME architecture_header_${name}
    COMMAND ${CMAKE_C_COMPILER} -std=c11 -fsyntax-only
            -D_POSIX_C_SOURCE=200809L -D__HIP_PLATFORM_AMD__
            "-DRL_PROBE_HEADER=\"${header}\""
            "$<$<BOOL:${RL_ARCH_CONSUMER_INCLUDES}>:-I$<JOIN:${RL_ARCH_CONSUMER_INCLUDES},;-I>>"
            ${RL_ARCH_DIR}/probe_include.c
    COMMAND_EXPAND_LISTS)
  set_tests_properties(architecture_header_${name} PROPERTIES
    LABELS "unit;architecture" TIMEOUT 60)
  if(visibility STREQUAL "PRIVATE")
    string(REPLACE "." "\\." pattern "${header}")
    set_tests_properties(architecture_header_${name} PROPERTIES
      PASS_REGULAR_EXPRESSION "${pattern}.*(No such file|not found)")
    # Negative control: with the project root on the include path (what
    # every target saw before), the same header compiles, so the probe
    # above fails the moment the header becomes reachable.
    add_test(NAME architecture_header_${name}_reachable_from_root
      COMMAND ${CMAKE_C_COMPILER} -std=c11 -fsyntax-only
              -D_POSIX_C_SOURCE=200809L -D__HIP_PLATFORM_AMD__
              "-DRL_PROBE_HEADER=\"${header}\""
              -I${PROJECT_SOURCE_DIR}
              "$<$<BOOL:${RL_ARCH_CONSUMER_INCLUDES}>:-I$<JOIN:${RL_ARCH_CONSUMER_INCLUDES},;-I>>"
              ${RL_ARCH_DIR}/probe_include.c
      COMMAND_EXPAND_LISTS)
    set_tests_properties(architecture_header_${name}_reachable_from_root
      PROPERTIES LABELS "unit;architecture" TIMEOUT 60)
  endif()
endfunction()

rl_arch_probe(exported_shadow shadow/shadow.h PUBLIC)
rl_arch_probe(exported_aql_kernarg aql/aql_kernarg.h PUBLIC)
rl_arch_probe(exported_sim redline/sim/sim.h PUBLIC)
rl_arch_probe(exported_api redline/replay.h PUBLIC)
rl_arch_probe(private_pm4_lower pm4/pm4_lower_internal.h PRIVATE)
rl_arch_probe(private_capture capture/capture_internal.h PRIVATE)
rl_arch_probe(private_sim redline/sim/sim_internal.h PRIVATE)
rl_arch_probe(private_engine redline/replay_internal.h PRIVATE)
rl_arch_probe(private_shadow shadow/bench_internal.h PRIVATE)
