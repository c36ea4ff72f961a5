# tests/hip_corpus_controls.cmake — controls beside the corpus (after
# tests/hip_corpus.cmake, whose variables and tests it uses), and the stop
# test's fixture program (stuck.hip, below). The negative
# control of code object variable buffers on the corpus `globals` capture
# (variable_copy.sh): after its shadow test wrote the capture, the shadow
# must fail on the variable's region when the replay binds it to a
# separate copy.
foreach(arch gfx1100 gfx1151)
  set(t hip_corpus.globals.${arch})
  if(NOT TEST ${t}.shadow)
    continue()
  endif()
  add_test(NAME ${t}.variable_copy
    COMMAND ${PROJECT_SOURCE_DIR}/tests/hip_corpus/variable_copy.sh
            $<TARGET_FILE:redline> ${RL_HIP_CORPUS_DIR}/${arch}/globals.rlc)
  set_tests_properties(${t}.variable_copy PROPERTIES
    LABELS "hip_corpus;integration" TIMEOUT 600
    FIXTURES_REQUIRED ${t}.capture)
endforeach()

# The shadow names order dependence (float atomics) as a divergence's cause:
# order_dependent.hip sums with float atomicAdd, order_dependent.sh checks
# the report (and that it does not claim the cause without the arms that
# show it). gfx1100 only: about 2 s.
if(TEST hip_corpus.globals.gfx1100.shadow)
  set(dir ${RL_HIP_CORPUS_DIR}/gfx1100)
  add_custom_command(OUTPUT ${dir}/order_dependent
    COMMAND ${RL_HIPCC} --offload-arch=gfx1100 ${RL_HIP_CORPUS_FLAGS}
            -Wall -Werror -o ${dir}/order_dependent
            ${RL_HIP_CORPUS_SRC}/order_dependent.hip
    DEPENDS ${RL_HIP_CORPUS_SRC}/order_dependent.hip ${rl_corpus_deps} rl_hipcc
    COMMENT "redline-hipcc gfx1100: hip_corpus/order_dependent (fixture)"
    VERBATIM)
  add_custom_target(rl_hip_corpus_controls ALL DEPENDS ${dir}/order_dependent)
  add_test(NAME hip_corpus.order_dependent.gfx1100.cause
    COMMAND ${RL_HIP_CORPUS_SRC}/order_dependent.sh $<TARGET_FILE:redline>
            gfx1100 ${dir}/order_dependent.rlc ${dir}/order_dependent)
  set_tests_properties(hip_corpus.order_dependent.gfx1100.cause PROPERTIES
    LABELS "hip_corpus;integration" TIMEOUT 600)
endif()

# Stop means stop (docs/failure-semantics.md, "A kernel that never ends"):
# stuck.hip's kernel spins once its flag is consumed; stuck.sh requires
# replay (aql, pm4), shadow and `redline run` to end within twice a 1 s
# bound. The Python bindings' test uses the program too (RL_STUCK_PROGRAM,
# tests/install.cmake). gfx1100 only: about 10 s.
if(RL_HIP_CORPUS_RUN)
  set(dir ${RL_HIP_CORPUS_DIR}/gfx1100)
  set(RL_STUCK_PROGRAM ${dir}/stuck)
  add_custom_command(OUTPUT ${RL_STUCK_PROGRAM}
    COMMAND ${RL_HIPCC} --offload-arch=gfx1100 ${RL_HIP_CORPUS_FLAGS}
            -Wall -Werror -o ${RL_STUCK_PROGRAM} ${RL_HIP_CORPUS_SRC}/stuck.hip
    DEPENDS ${RL_HIP_CORPUS_SRC}/stuck.hip ${rl_corpus_deps} rl_hipcc
    COMMENT "redline-hipcc gfx1100: hip_corpus/stuck (fixture)"
    VERBATIM)
  add_custom_target(rl_hip_corpus_stuck ALL DEPENDS ${RL_STUCK_PROGRAM})
  add_test(NAME hip_corpus.stuck.gfx1100.stop
    COMMAND ${RL_HIP_CORPUS_SRC}/stuck.sh $<TARGET_FILE:redline>
            gfx1100 ${dir}/stuck.rlc ${RL_STUCK_PROGRAM})
  set_tests_properties(hip_corpus.stuck.gfx1100.stop PROPERTIES
    LABELS "hip_corpus;integration" TIMEOUT 300)
endif()

# The watchdog knows progress (docs/reliability.md, "The watchdog"):
# progress.hip's dispatches run longer than a 1 s stall bound while
# completing work-groups (exit 0), or complete nothing in one work-group
# (stopped, exit 7); a dispatch over 2^24 work-items is refused by default
# and runs with --max-work-items; replays of a captured long run get the
# same stall bound on routes aql and pm4 and in arm hip, and the shadow
# states it (progress.sh). gfx1100 only: about 40 s.
if(RL_HIP_CORPUS_RUN)
  set(dir ${RL_HIP_CORPUS_DIR}/gfx1100)
  add_custom_command(OUTPUT ${dir}/progress
    COMMAND ${RL_HIPCC} --offload-arch=gfx1100 ${RL_HIP_CORPUS_FLAGS}
            -Wall -Werror -o ${dir}/progress ${RL_HIP_CORPUS_SRC}/progress.hip
    DEPENDS ${RL_HIP_CORPUS_SRC}/progress.hip ${rl_corpus_deps} rl_hipcc
    COMMENT "redline-hipcc gfx1100: hip_corpus/progress (fixture)"
    VERBATIM)
  add_custom_target(rl_hip_corpus_progress ALL DEPENDS ${dir}/progress)
  add_test(NAME hip_corpus.progress.gfx1100.watchdog
    COMMAND ${RL_HIP_CORPUS_SRC}/progress.sh $<TARGET_FILE:redline>
            gfx1100 ${dir}/progress)
  set_tests_properties(hip_corpus.progress.gfx1100.watchdog PROPERTIES
    LABELS "hip_corpus;integration" TIMEOUT 600)
endif()

# Fault messages are whole (docs/failure-semantics.md): fault_message.hip's
# kernel, named with over 300 characters, faults; fault_message.sh requires
# the runtime's line to hold the PC, the fault and the simulator's closing
# words, over 800 bytes (once cut at 256, 512 and 600). gfx1100 only.
if(RL_HIP_CORPUS_RUN)
  set(dir ${RL_HIP_CORPUS_DIR}/gfx1100)
  add_custom_command(OUTPUT ${dir}/fault_message
    COMMAND ${RL_HIPCC} --offload-arch=gfx1100 ${RL_HIP_CORPUS_FLAGS}
            -Wall -Werror -o ${dir}/fault_message
            ${RL_HIP_CORPUS_SRC}/fault_message.hip
    DEPENDS ${RL_HIP_CORPUS_SRC}/fault_message.hip rl_hipcc
    COMMENT "redline-hipcc gfx1100: hip_corpus/fault_message (fixture)"
    VERBATIM)
  add_custom_target(rl_hip_corpus_fault_message ALL
    DEPENDS ${dir}/fault_message)
  add_test(NAME hip_corpus.fault_message.gfx1100.whole
    COMMAND ${RL_HIP_CORPUS_SRC}/fault_message.sh $<TARGET_FILE:redline>
            ${dir}/fault_message)
  set_tests_properties(hip_corpus.fault_message.gfx1100.whole PROPERTIES
    LABELS "hip_corpus;integration" TIMEOUT 120)
endif()

# hiprtc without its compiler (tests/hip_corpus/rtc.hip "missing"): the
# compile must answer HIPRTC_ERROR_INTERNAL_ERROR with a log naming
# redline-hipcc, and the program exit 0 (no crash). missing_driver:
# REDLINE_HIPRTC_HIPCC names a file that does not exist; missing_clang: the
# driver runs and finds no clang++ (REDLINE_HIPCC_CLANG). gfx1100 only:
# about 1 s each.
if(RL_HIP_CORPUS_RUN)
  set(rl_rtc_missing_driver
    REDLINE_HIPRTC_HIPCC=${RL_HIP_CORPUS_DIR}/no-such-redline-hipcc)
  set(rl_rtc_missing_clang
    REDLINE_HIPCC_CLANG=${RL_HIP_CORPUS_DIR}/no-such-clang++)
  foreach(what driver clang)
    set(t hip_corpus.rtc.gfx1100.missing_${what})
    add_test(NAME ${t}
      COMMAND ${CMAKE_COMMAND} -E env ${rl_rtc_missing_${what}}
              $<TARGET_FILE:redline> run --processor gfx1100 --
              ${RL_HIP_CORPUS_DIR}/gfx1100/rtc missing)
    set_tests_properties(${t} PROPERTIES LABELS "hip_corpus;integration"
      TIMEOUT 600)
  endforeach()
  # Name expressions naming host code fail the compile as in ROCm's
  # hiprtc (tests/hip_corpus/rtc.hip "host_names"; docs/hip-runtime.md).
  # gfx1100 only: six compiles.
  add_test(NAME hip_corpus.rtc.gfx1100.host_names
    COMMAND $<TARGET_FILE:redline> run --processor gfx1100 --
            ${RL_HIP_CORPUS_DIR}/gfx1100/rtc host_names)
  set_tests_properties(hip_corpus.rtc.gfx1100.host_names PROPERTIES
    LABELS "hip_corpus;integration" TIMEOUT 600)
endif()
