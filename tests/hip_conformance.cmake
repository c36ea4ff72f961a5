# tests/hip_conformance.cmake — the HIP runtime conformance suite
# (tests/hip_conformance/*.hip, docs/hip-runtime.md "Conformance"): one
# small self-checking program per documented rule of the HIP runtime
# (copies, streams, events, capture, asynchronous execution), built with
# redline-hipcc for gfx1100 and run on redline's HIP runtime. After
# tests/hip_corpus.cmake (its redline-hipcc dependencies).
#
#   hip_conformance.<rule>.run      `redline run -- PROGRAM`: exit 0
#   hip_conformance.<rule>.control  negative control: with
#       REDLINE_CONFORMANCE_BREAK=1 the program inverts its first check and
#       must exit 1
#   hip_conformance.<rule>.shadow   for the programs whose whole run the
#       capture interposer records: `redline run --capture`, then the shadow
#       on eager, aql, pm4, hip and hipgraph (tests/hip_corpus/corpus_run.sh)
#   hip_conformance.host_memory_kernels.uploads  host stores into host
#       memory are in the capture (host_uploads.sh)
set(RL_HIP_CONFORMANCE_SRC ${CMAKE_CURRENT_SOURCE_DIR}/hip_conformance)
set(RL_HIP_CONFORMANCE_DIR ${CMAKE_BINARY_DIR}/tests/hip_conformance)
set(RL_HIP_CONFORMANCE_PROGRAMS
  copy_h2d_pageable_async copy_d2h_pageable_async copy_h2h_async
  copy_symbol_async wait_event_pingpong capture_fork_join async_poll_flag
  async_submission_order null_stream_legacy host_func_order resource_slots
  launch_validation event_flags error_strings copy_2d_3d host_register
  engine_pageable_uploads copy_pinned_memset context_api device_attributes
  graph_exec_node_params host_memory_kernels)
# Programs the capture records completely (the others use host functions,
# symbol copies inside the window, a kernel polling host memory while it
# runs or a refused launch, and their captures are marked incomplete or
# cannot be made: shadow exits 4).
set(RL_HIP_CONFORMANCE_SHADOWED
  copy_h2d_pageable_async copy_d2h_pageable_async wait_event_pingpong
  capture_fork_join null_stream_legacy async_submission_order host_register
  host_memory_kernels copy_pinned_memset async_poll_flag)
if(NOT RL_HIP_CORPUS OR NOT RL_HIPCC_HAVE_DEVICE_LIBS OR NOT RL_HIP_CORPUS_RUN)
  return()
endif()
file(MAKE_DIRECTORY ${RL_HIP_CONFORMANCE_DIR})
set(rl_conformance_outputs)
foreach(name IN LISTS RL_HIP_CONFORMANCE_PROGRAMS)
  set(program ${RL_HIP_CONFORMANCE_DIR}/${name})
  add_custom_command(OUTPUT ${program}
    COMMAND ${RL_HIPCC} --offload-arch=gfx1100 -O2 -Wall -Werror
            -o ${program} ${RL_HIP_CONFORMANCE_SRC}/${name}.hip
    DEPENDS ${RL_HIP_CONFORMANCE_SRC}/${name}.hip
            ${RL_HIP_CONFORMANCE_SRC}/conformance.h ${rl_corpus_deps} rl_hipcc
    COMMENT "redline-hipcc gfx1100: hip_conformance/${name}"
    VERBATIM)
  list(APPEND rl_conformance_outputs ${program})
  set(t hip_conformance.${name})
  add_test(NAME ${t}.run
    COMMAND ${RL_HIP_CONFORMANCE_SRC}/conformance_run.sh run
            $<TARGET_FILE:redline> ${program})
  add_test(NAME ${t}.control
    COMMAND ${RL_HIP_CONFORMANCE_SRC}/conformance_run.sh control
            $<TARGET_FILE:redline> ${program})
  set_tests_properties(${t}.run ${t}.control PROPERTIES
    LABELS "hip_conformance;integration" TIMEOUT 300)
  if(name IN_LIST RL_HIP_CONFORMANCE_SHADOWED)
    add_test(NAME ${t}.shadow
      COMMAND ${RL_HIP_CORPUS_SRC}/corpus_run.sh shadow $<TARGET_FILE:redline>
              gfx1100 ${program}.rlc ${program})
    set_tests_properties(${t}.shadow PROPERTIES
      LABELS "hip_conformance;integration" TIMEOUT 600)
  endif()
endforeach()
add_custom_target(rl_hip_conformance ALL DEPENDS ${rl_conformance_outputs})
# Host stores into host memory between launches reach the capture: the
# whole run's replay equals the replay of a window opening after them
# (host_uploads.sh; REDLINE_TEST_FAULT=host-writes-off is its control).
add_test(NAME hip_conformance.host_memory_kernels.uploads
  COMMAND ${RL_HIP_CONFORMANCE_SRC}/host_uploads.sh $<TARGET_FILE:redline>
          ${RL_HIP_CONFORMANCE_DIR}/host_memory_kernels
          ${RL_HIP_CONFORMANCE_DIR}/host_uploads)
set_tests_properties(hip_conformance.host_memory_kernels.uploads PROPERTIES
  LABELS "hip_conformance;integration" TIMEOUT 300)
