# redline/library.cmake — libredline, the library products embed: the
# public API of redline/include/redline/ (and nothing else) over the
# engine, the simulator, the backends and the shadow runner.
#
#   redline_shared  libredline.so.0 (SONAME libredline.so.0). Every object
#                   of the static libraries below is linked in; the version
#                   script redline/libredline.map exports exactly the
#                   functions the public headers declare and hides the rest
#                   (tests/install/check_exports.sh compares the two).
#   redline_static  libredline.a with the same objects (RL_INSTALL_STATIC).
#
# Read last (set_target_properties needs the parts defined). The static
# libraries are compiled position-independent so one set of objects serves
# both.
option(RL_INSTALL_STATIC "Also build and install libredline.a" ON)

set(RL_LIBRARY_PARTS
  rl_base ${RL_CAPTURE_MODULES} rl_aql rl_pm4 rl_device ${RL_SIM_MODULES}
  rl_sim_isa rl_sim_oracle rl_kernels_ref
  rl_backends rl_device_funnel rl_engine rl_kernels_workloads rl_shadow
  rl_shadow_hip)
set_target_properties(${RL_LIBRARY_PARTS} PROPERTIES
  POSITION_INDEPENDENT_CODE ON)

# The JSON entry points of shadow and bench (redline/shadow_json.h), for
# language bindings; compiled once, like the parts.
add_library(rl_shadow_json OBJECT ${PROJECT_SOURCE_DIR}/shadow/hip/shadow_json.c)
rl_module_headers(rl_shadow_json FOLDER shadow/hip API shadow_json.h)
target_link_libraries(rl_shadow_json PRIVATE rl_shadow_hip)
set_target_properties(rl_shadow_json PROPERTIES POSITION_INDEPENDENT_CODE ON)

set(RL_LIBRARY_OBJECTS $<TARGET_OBJECTS:rl_shadow_json>)
foreach(part IN LISTS RL_LIBRARY_PARTS)
  list(APPEND RL_LIBRARY_OBJECTS $<TARGET_OBJECTS:${part}>)
endforeach()

add_library(redline_shared SHARED ${RL_LIBRARY_OBJECTS})
# Linking the parts as well brings their include directories and external
# libraries; their archive members are never pulled (the objects above
# already define every symbol).
target_link_libraries(redline_shared PRIVATE ${RL_LIBRARY_PARTS})
target_include_directories(redline_shared INTERFACE
  $<BUILD_INTERFACE:${CMAKE_CURRENT_LIST_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_link_options(redline_shared PRIVATE
  -Wl,--version-script=${CMAKE_CURRENT_LIST_DIR}/libredline.map
  ${RL_SHARED_NO_UNDEFINED})
set_target_properties(redline_shared PROPERTIES
  OUTPUT_NAME redline
  VERSION ${PROJECT_VERSION}
  SOVERSION 0
  EXPORT_NAME redline
  LINK_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/libredline.map)

if(RL_INSTALL_STATIC)
  # Objects only: its external libraries are listed by redline.pc
  # (Libs.private) and the CMake package (redline::redline_static).
  add_library(redline_static STATIC ${RL_LIBRARY_OBJECTS})
  target_include_directories(redline_static INTERFACE
    $<BUILD_INTERFACE:${CMAKE_CURRENT_LIST_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(redline_static INTERFACE
    xxhash zstd elf cjson msgpackc m ${CMAKE_DL_LIBS} Threads::Threads)
  set_target_properties(redline_static PROPERTIES
    OUTPUT_NAME redline
    EXPORT_NAME redline_static)
endif()
