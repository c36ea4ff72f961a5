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
    # The header itself not found (gcc: "error: x.h: No such file", clang:
    # "error: 'x.h' file not found"), not a header it includes.
    set_tests_properties(architecture_header_${name} PROPERTIES
      PASS_REGULAR_EXPRESSION "error: '?${pattern}'?:? (No such file|file not found)")
    # Negative control: with the project root on the include path (what
    # every target saw before), the same header compiles, so the probe
    # above fails the moment the header becomes reachable.
    # -H lists every header opened (". /path/x.h"): the control passes when
    # the header itself is opened, whatever the headers it includes need.
    add_test(NAME architecture_header_${name}_reachable_from_root
      COMMAND ${CMAKE_C_COMPILER} -std=c11 -fsyntax-only -H
              -D_POSIX_C_SOURCE=200809L -D__HIP_PLATFORM_AMD__
              "-DRL_PROBE_HEADER=\"${header}\""
              -I${PROJECT_SOURCE_DIR}
              "$<$<BOOL:${RL_ARCH_CONSUMER_INCLUDES}>:-I$<JOIN:${RL_ARCH_CONSUMER_INCLUDES},;-I>>"
              ${RL_ARCH_DIR}/probe_include.c
      COMMAND_EXPAND_LISTS)
    set_tests_properties(architecture_header_${name}_reachable_from_root
      PROPERTIES LABELS "unit;architecture" TIMEOUT 60
      PASS_REGULAR_EXPRESSION "[.] [^\n]*/${pattern}")
  endif()
endfunction()

rl_arch_probe(exported_shadow shadow/shadow.h PUBLIC)
rl_arch_probe(exported_aql_kernarg aql/aql_kernarg.h PUBLIC)
rl_arch_probe(exported_sim sim/sim.h PUBLIC)
rl_arch_probe(exported_api redline/replay.h PUBLIC)

# The public API per module (cmake/Modules.cmake, API): a consumer of
# rl_capture alone reaches capture's API headers (redline/capture.h) and not
# the engine's (redline/replay.h): architecture_header_api_capture (the
# positive control that the flags work) and
# architecture_header_api_replay_below_engine.
set(RL_ARCH_CAPTURE_INCLUDES
  "$<TARGET_PROPERTY:rl_capture,INTERFACE_INCLUDE_DIRECTORIES>")
foreach(probe api_capture api_replay_below_engine)
  if(probe STREQUAL "api_capture")
    set(header redline/capture.h)
  else()
    set(header redline/replay.h)
  endif()
  add_test(NAME architecture_header_${probe}
    COMMAND ${CMAKE_C_COMPILER} -std=c11 -fsyntax-only -H
            -D_POSIX_C_SOURCE=200809L
            "-DRL_PROBE_HEADER=\"${header}\""
            "-I$<JOIN:${RL_ARCH_CAPTURE_INCLUDES},;-I>"
            ${RL_ARCH_DIR}/probe_include.c
    COMMAND_EXPAND_LISTS)
  set_tests_properties(architecture_header_${probe} PROPERTIES
    LABELS "unit;architecture" TIMEOUT 60)
endforeach()
# The tree's replay.h must not be opened (-H lists each header opened); a
# copy installed on the system (/usr/include/redline/, a Debian package of
# redline) may be, so the probe passes on "not found" or on that copy.
set_tests_properties(architecture_header_api_replay_below_engine PROPERTIES
  PASS_REGULAR_EXPRESSION "(redline/replay\\.h'?:? (No such file|file not found)|[.] /usr/include/redline/replay\\.h)"
  FAIL_REGULAR_EXPRESSION "(redline/include/redline/replay\\.h|rl_include/[^ ]*/redline/replay\\.h)")
# Its negative control: with the whole API directory on the path (what
# rl_base gave every target before), the tree's replay.h is opened.
add_test(NAME architecture_header_api_replay_reachable_from_api_dir
  COMMAND ${CMAKE_C_COMPILER} -std=c11 -fsyntax-only -H
          -D_POSIX_C_SOURCE=200809L "-DRL_PROBE_HEADER=\"redline/replay.h\""
          -I${PROJECT_SOURCE_DIR}/redline/include
          "-I$<JOIN:${RL_ARCH_CAPTURE_INCLUDES},;-I>"
          ${RL_ARCH_DIR}/probe_include.c
  COMMAND_EXPAND_LISTS)
set_tests_properties(architecture_header_api_replay_reachable_from_api_dir
  PROPERTIES LABELS "unit;architecture" TIMEOUT 60
  PASS_REGULAR_EXPRESSION "[.] [^\n]*redline/include/redline/replay\\.h")

# Every private header of a product module (owned by a module, exported by
# none; cmake/Modules.cmake records both lists) has its probe:
# architecture_header_private_<folder>_<header>.
get_property(rl_arch_owned GLOBAL PROPERTY RL_MODULE_HEADERS)
get_property(rl_arch_exported GLOBAL PROPERTY RL_EXPORTED_HEADERS)
list(REMOVE_DUPLICATES rl_arch_owned)
foreach(header IN LISTS rl_arch_owned)
  if(header MATCHES "^tests/" OR header IN_LIST rl_arch_exported)
    continue()
  endif()
  string(REGEX REPLACE "[/.]" "_" name "${header}")
  string(REGEX REPLACE "_h$" "" name "${name}")
  rl_arch_probe(private_${name} ${header} PRIVATE)
endforeach()

# architecture_routes: no route-kind branch outside the route table
# (redline/replay_route*.c) and the arm table (shadow/shadow_arm.c), and
# the routes' state header included by the routes only (check_routes.py);
# its negative control plants a branch and an include one at a time.
add_test(NAME architecture_routes
  COMMAND ${RL_ARCH_PYTHON3} ${RL_ARCH_DIR}/check_routes.py
          --root ${PROJECT_SOURCE_DIR})
add_test(NAME architecture_routes_negative_control
  COMMAND ${RL_ARCH_PYTHON3} ${RL_ARCH_DIR}/check_routes.py
          --negative-control --root ${PROJECT_SOURCE_DIR})
set_tests_properties(architecture_routes architecture_routes_negative_control
  PROPERTIES LABELS "unit;architecture" TIMEOUT 120)

# architecture_calls: no call cycle between modules, read from the built
# objects with nm (check_calls.py): every product module's objects, one
# module per folder of the layering. Within the simulator (its core, sim/isa,
# sim/oracle) and capture/ (its modules model, format, code_object, hazard,
# recording, bind, one library each, and capture/interposer) too: a module
# may call only down; the simulator's core the same way (its modules clock,
# mem, signal, wg, cp and device, whose library is rl_sim). The HIP runtime over the simulator (sim/hip_sim/) is left
# out: it defines the same hip* entry points as the capture interposer, two
# libraries no program loads together. Its negative control compiles one
# call from sim/wg into sim/isa (which calls into sim/wg: the executor's
# memory accesses): the check must fail on exactly that cycle.
set(RL_ARCH_CALL_MODULES
  "base=$<TARGET_OBJECTS:rl_base>"
  "capture/code_object=$<TARGET_OBJECTS:rl_capture_code_object>"
  "capture/bind=$<TARGET_OBJECTS:rl_capture_bind>"
  "capture/model=$<TARGET_OBJECTS:rl_capture_model>"
  "capture/hazard=$<TARGET_OBJECTS:rl_capture_hazard>"
  "capture/format=$<TARGET_OBJECTS:rl_capture_format>"
  "capture/recording=$<TARGET_OBJECTS:rl_capture_recording>"
  "capture/interposer=$<TARGET_OBJECTS:redline_capture>"
  "aql=$<TARGET_OBJECTS:rl_aql>"
  "pm4=$<TARGET_OBJECTS:rl_pm4>"
  "redline/device=$<TARGET_OBJECTS:rl_device>"
  "redline/device=$<TARGET_OBJECTS:rl_device_funnel>"
  "kernels/ref=$<TARGET_OBJECTS:rl_kernels_ref>"
  "kernels/workloads=$<TARGET_OBJECTS:rl_kernels_workloads>"
  "redline/backends=$<TARGET_OBJECTS:rl_backends>"
  "redline=$<TARGET_OBJECTS:rl_engine>"
  "shadow=$<TARGET_OBJECTS:rl_shadow>")
add_test(NAME architecture_calls
  COMMAND ${RL_ARCH_PYTHON3} ${RL_ARCH_DIR}/check_calls.py
          --nm ${CMAKE_NM}
          "sim/device=$<TARGET_OBJECTS:rl_sim>"
          "sim/cp=$<TARGET_OBJECTS:rl_sim_cp>"
          "sim/wg=$<TARGET_OBJECTS:rl_sim_wg>"
          "sim/signal=$<TARGET_OBJECTS:rl_sim_signal>"
          "sim/mem=$<TARGET_OBJECTS:rl_sim_mem>"
          "sim/clock=$<TARGET_OBJECTS:rl_sim_clock>"
          "sim/isa=$<TARGET_OBJECTS:rl_sim_isa>"
          "sim/oracle=$<TARGET_OBJECTS:rl_sim_oracle>"
          ${RL_ARCH_CALL_MODULES})
add_test(NAME architecture_calls_negative_control
  COMMAND ${RL_ARCH_PYTHON3} ${RL_ARCH_DIR}/check_calls.py
          --negative-control --control sim/wg,sim/isa
          --nm ${CMAKE_NM} --cc ${CMAKE_C_COMPILER}
          "sim/device=$<TARGET_OBJECTS:rl_sim>"
          "sim/cp=$<TARGET_OBJECTS:rl_sim_cp>"
          "sim/wg=$<TARGET_OBJECTS:rl_sim_wg>"
          "sim/signal=$<TARGET_OBJECTS:rl_sim_signal>"
          "sim/mem=$<TARGET_OBJECTS:rl_sim_mem>"
          "sim/clock=$<TARGET_OBJECTS:rl_sim_clock>"
          "sim/isa=$<TARGET_OBJECTS:rl_sim_isa>"
          "sim/oracle=$<TARGET_OBJECTS:rl_sim_oracle>"
          ${RL_ARCH_CALL_MODULES})
# The same inside capture/: one call from capture/bind (the bottom of the
# binding path) back into capture/model (whose validation evaluates
# bindings) must fail as a cycle of the split modules.
add_test(NAME architecture_calls_negative_control_capture
  COMMAND ${RL_ARCH_PYTHON3} ${RL_ARCH_DIR}/check_calls.py
          --negative-control --control capture/bind,capture/model
          --nm ${CMAKE_NM} --cc ${CMAKE_C_COMPILER}
          "sim/device=$<TARGET_OBJECTS:rl_sim>"
          "sim/cp=$<TARGET_OBJECTS:rl_sim_cp>"
          "sim/wg=$<TARGET_OBJECTS:rl_sim_wg>"
          "sim/signal=$<TARGET_OBJECTS:rl_sim_signal>"
          "sim/mem=$<TARGET_OBJECTS:rl_sim_mem>"
          "sim/clock=$<TARGET_OBJECTS:rl_sim_clock>"
          "sim/isa=$<TARGET_OBJECTS:rl_sim_isa>"
          "sim/oracle=$<TARGET_OBJECTS:rl_sim_oracle>"
          ${RL_ARCH_CALL_MODULES})
# And inside the simulator's core: one call from sim/mem (the cache model,
# whose findings go up through the device's upcalls, sim_mem.h) back into
# sim/wg (which calls the cache on every access) must fail as a cycle of
# the core's modules.
add_test(NAME architecture_calls_negative_control_sim
  COMMAND ${RL_ARCH_PYTHON3} ${RL_ARCH_DIR}/check_calls.py
          --negative-control --control sim/mem,sim/wg
          --nm ${CMAKE_NM} --cc ${CMAKE_C_COMPILER}
          "sim/device=$<TARGET_OBJECTS:rl_sim>"
          "sim/cp=$<TARGET_OBJECTS:rl_sim_cp>"
          "sim/wg=$<TARGET_OBJECTS:rl_sim_wg>"
          "sim/signal=$<TARGET_OBJECTS:rl_sim_signal>"
          "sim/mem=$<TARGET_OBJECTS:rl_sim_mem>"
          "sim/clock=$<TARGET_OBJECTS:rl_sim_clock>"
          "sim/isa=$<TARGET_OBJECTS:rl_sim_isa>"
          "sim/oracle=$<TARGET_OBJECTS:rl_sim_oracle>"
          ${RL_ARCH_CALL_MODULES})
set_tests_properties(architecture_calls architecture_calls_negative_control
  architecture_calls_negative_control_capture
  architecture_calls_negative_control_sim PROPERTIES LABELS "unit;architecture" TIMEOUT 120)

# Each module of sim/ and capture/ is its own library with its own include
# view (cmake/Modules.cmake: own headers, the exported and API headers of
# the modules it links, the INTERNAL headers of the modules it USES), so a
# module including a header of a module above it does not compile.
# architecture_view_<module>_sees_<header>: the module's own compile include
# path (the target's INCLUDE_DIRECTORIES, with those of what it links)
# reaches its own header and a lower module's (the positive control that
# the flags work); architecture_view_<module>_not_<header>: a header of a
# module above it is not found; its negative control
# architecture_view_<module>_not_<header>_reachable_from_<above> compiles
# the same probe with the include path of the module that owns the header.
# rl_arch_view(<name> <target> <header> SEES|NOT [<owner target>])
function(rl_arch_view name target header mode)
  set(includes "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(probe ${CMAKE_C_COMPILER} -std=c11 -fsyntax-only -H
            -D_POSIX_C_SOURCE=200809L "-DRL_PROBE_HEADER=\"${header}\""
            ${RL_ARCH_DIR}/probe_include.c)
  string(REPLACE "." "\\." pattern "${header}")
  if(mode STREQUAL "SEES")
    add_test(NAME architecture_view_${name}
      COMMAND ${probe} "-I$<JOIN:${includes},;-I>" COMMAND_EXPAND_LISTS)
    set_tests_properties(architecture_view_${name} PROPERTIES
      LABELS "unit;architecture" TIMEOUT 60
      PASS_REGULAR_EXPRESSION "[.] [^\n]*/${pattern}")
    return()
  endif()
  add_test(NAME architecture_view_${name}
    COMMAND ${probe} "-I$<JOIN:${includes},;-I>" COMMAND_EXPAND_LISTS)
  set_tests_properties(architecture_view_${name} PROPERTIES
    LABELS "unit;architecture" TIMEOUT 60
    PASS_REGULAR_EXPRESSION "error: '?${pattern}'?:? (No such file|file not found)")
  set(owner "${ARGV4}")
  set(owner_includes "$<TARGET_PROPERTY:${owner},INCLUDE_DIRECTORIES>")
  string(REGEX REPLACE "^rl_" "" owner_name "${owner}")
  add_test(NAME architecture_view_${name}_reachable_from_${owner_name}
    COMMAND ${probe} "-I$<JOIN:${owner_includes},;-I>" COMMAND_EXPAND_LISTS)
  set_tests_properties(architecture_view_${name}_reachable_from_${owner_name}
    PROPERTIES LABELS "unit;architecture" TIMEOUT 60
    PASS_REGULAR_EXPRESSION "[.] [^\n]*/${pattern}")
endfunction()
# The simulator's core: the memory module sees its header and the clock's
# is not its (it does not use it); the work-group layer's is above it.
rl_arch_view(sim_mem_sees_sim_mem rl_sim_mem sim/mem/sim_mem.h SEES)
rl_arch_view(sim_wg_sees_sim_mem rl_sim_wg sim/mem/sim_mem.h SEES)
rl_arch_view(sim_mem_not_sim_wg rl_sim_mem sim/wg/sim_wg.h NOT rl_sim_wg)
rl_arch_view(sim_wg_not_sim_cp rl_sim_wg sim/cp/sim_cp.h NOT rl_sim_cp)
# An executor (sim/isa) sees the simulator's public headers, not its core.
rl_arch_view(sim_isa_sees_sim_executor rl_sim_isa sim/sim_executor.h SEES)
rl_arch_view(sim_isa_not_sim_wg rl_sim_isa sim/wg/sim_wg.h NOT rl_sim_wg)
# capture/: the binding path sits below the model, whose shared header it
# must not see; the format module, which uses the model, does.
rl_arch_view(capture_format_sees_capture_internal rl_capture_format
  capture/model/capture_internal.h SEES)
rl_arch_view(capture_bind_not_capture_internal rl_capture_bind
  capture/model/capture_internal.h NOT rl_capture_model)
rl_arch_view(capture_model_not_funnel_internal rl_capture_model
  capture/recording/funnel_internal.h NOT rl_capture_recording)
