# redline/backends/interposer.cmake — libredline_capture.so, the LD_PRELOAD
# interposer that captures an unmodified HIP program (interposer.c). A
# SHARED library embedding the capture model and the funnel; it exports
# only the HIP entry points it interposes.
find_package(Threads REQUIRED)
add_library(redline_capture SHARED ${CMAKE_CURRENT_LIST_DIR}/interposer.c)
set_target_properties(rl_base rl_capture PROPERTIES POSITION_INDEPENDENT_CODE ON)
rl_module_headers(redline_capture FOLDER redline/backends)
target_include_directories(redline_capture SYSTEM PRIVATE ${RL_HIP_INCLUDE_DIR})
target_compile_definitions(redline_capture PRIVATE __HIP_PLATFORM_AMD__)
target_link_libraries(redline_capture PRIVATE rl_capture rl_base
  ${CMAKE_DL_LIBS} Threads::Threads)
target_link_options(redline_capture PRIVATE
  -Wl,--version-script=${CMAKE_CURRENT_LIST_DIR}/interposer.map
  ${RL_SHARED_NO_UNDEFINED} -Wl,-Bsymbolic)
# Beside the HIP runtime over the simulator (redline/hip_sim), where
# `redline run --capture` preloads it from.
set_target_properties(redline_capture PROPERTIES
  OUTPUT_NAME redline_capture
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib/redline
  LINK_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/interposer.map)
