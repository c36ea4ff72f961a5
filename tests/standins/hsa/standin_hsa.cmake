# tests/standins/hsa/standin_hsa.cmake — the CI stand-in for ROCr: a shared
# library named libhsa-runtime64.so.1 (the real SONAME) implementing the
# subset of ROCr redline's rocr device uses over the simulated GPU
# (standin_hsa.h). Built with the tests (or by cmake/Install.cmake), into
# its own directory, and used only through REDLINE_HSA_LIBRARY=<path>:
# installed only as a private library (LIBDIR/redline), never on the
# default search path. It gets the same sanitizer flags as everything
# else (the global add_compile_options / add_link_options).
set(RL_STANDIN_HSA_DIR ${CMAKE_CURRENT_LIST_DIR})
add_library(rl_standin_hsa SHARED
  ${RL_STANDIN_HSA_DIR}/standin_hsa_runtime.c
  ${RL_STANDIN_HSA_DIR}/standin_hsa_memory.c
  ${RL_STANDIN_HSA_DIR}/standin_hsa_queue.c
  ${RL_STANDIN_HSA_DIR}/standin_hsa_signal.c
  ${RL_STANDIN_HSA_DIR}/standin_hsa_corrupt.c
  ${RL_STANDIN_HSA_DIR}/standin_hsa_loader.c
)
# The static libraries it embeds must be position independent.
set_target_properties(rl_base rl_capture rl_aql rl_pm4 rl_sim rl_kernels_ref
  PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(rl_standin_hsa SYSTEM PRIVATE ${RL_HSA_INCLUDE_DIR})
# A stand-in is test code built with the product (it is installed as a
# private library): like the tests it names its headers from the root.
rl_module_headers(rl_standin_hsa FOLDER tests/standins/hsa)
target_link_libraries(rl_standin_hsa PRIVATE rl_sim rl_kernels_ref Threads::Threads)
# Export only the HSA API and the test hooks; the embedded rl_* copies stay
# private so they never interpose on the host program's.
target_link_options(rl_standin_hsa PRIVATE
  -Wl,--version-script=${RL_STANDIN_HSA_DIR}/standin_hsa.map
  ${RL_SHARED_NO_UNDEFINED} -Wl,-Bsymbolic)
set_target_properties(rl_standin_hsa PROPERTIES
  OUTPUT_NAME hsa-runtime64
  VERSION 1.0.0
  SOVERSION 1
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests/standins/hsa
  LINK_DEPENDS ${RL_STANDIN_HSA_DIR}/standin_hsa.map)
set(RL_STANDIN_HSA_LIBRARY
  ${CMAKE_BINARY_DIR}/tests/standins/hsa/libhsa-runtime64.so.1)
