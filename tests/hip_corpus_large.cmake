# tests/hip_corpus_large.cmake — the large HIP corpus programs
# (docs/hip-corpus.md, "Large programs"): the sizes public samples use, which
# ordinary corpus programs avoid to keep CI short. gfx1100 only, labelled
# slow (the sanitizer stage skips them); after tests/hip_corpus.cmake.
#
#   matmul_big  2048x1024 by 1024x1024 float product (2.1 G multiply-adds)
#   conv_big    4096x4096 5x5 convolution, one thread per input pixel of
#               each 20x20 tile: 26,214,400 work-items: `redline run`
#               gives a program the hardware's limits, while a replay's
#               budget is 2^24, so the shadow gets --max-work-items 32M
#
#   hip_corpus_large.<name>.gfx1100.shadow   `redline run --capture` (the
#       program runs and checks itself: exit 0), then the shadow over eager,
#       aql and hip without adversarial copies (each arm replays the whole
#       product again; the adversarial ones run several times slower)
#   hip_corpus_large.<name>.gfx1100.corrupt  negative control: with
#       REDLINE_CORPUS_CORRUPT=1 the program must exit 1
#   hip_corpus_large.conv_big.gfx1100.cap    negative control of the budget:
#       with --max-work-items 16M the launch is refused (exit 2)
set(RL_HIP_CORPUS_LARGE matmul_big conv_big)
if(NOT RL_HIP_CORPUS OR NOT RL_HIPCC_HAVE_DEVICE_LIBS OR NOT RL_HIP_CORPUS_RUN)
  return()
endif()
set(dir ${RL_HIP_CORPUS_DIR}/gfx1100)
set(rl_large_outputs)
foreach(name IN LISTS RL_HIP_CORPUS_LARGE)
  add_custom_command(OUTPUT ${dir}/${name}
    COMMAND ${RL_HIPCC} --offload-arch=gfx1100 ${RL_HIP_CORPUS_FLAGS}
            -Wall -Werror -o ${dir}/${name} ${RL_HIP_CORPUS_SRC}/${name}.hip
    DEPENDS ${RL_HIP_CORPUS_SRC}/${name}.hip ${rl_corpus_deps} rl_hipcc
    COMMENT "redline-hipcc gfx1100: hip_corpus/${name} (large)"
    VERBATIM)
  list(APPEND rl_large_outputs ${dir}/${name})
  # --timeout-ms: a replayed dispatch of these sizes runs longer than the
  # shadow's fixed 10 s bound per wait (issue 31 item 2: a bound scaled by
  # the recorded device time is not there yet).
  set(opts "--adversarial-seeds 0 --timeout-ms 900000")
  set(env "RL_CORPUS_SHADOW_OPTS=${opts}")
  if(name STREQUAL "conv_big")
    set(env "RL_CORPUS_SHADOW_OPTS=${opts} --max-work-items 32M")
  endif()
  set(t hip_corpus_large.${name}.gfx1100)
  foreach(mode shadow corrupt)
    add_test(NAME ${t}.${mode}
      COMMAND ${RL_HIP_CORPUS_SRC}/corpus_run.sh ${mode}
              $<TARGET_FILE:redline> gfx1100 ${dir}/${name}.rlc ${dir}/${name})
    set_tests_properties(${t}.${mode} PROPERTIES
      LABELS "hip_corpus;integration;slow" TIMEOUT 1800
      ENVIRONMENT "RL_CORPUS_ARMS=eager,aql,hip;${env}")
  endforeach()
endforeach()
add_custom_target(rl_hip_corpus_large ALL DEPENDS ${rl_large_outputs})
# Under a budget of 16M the simulator refuses conv_big's launch before
# running it: the program's HIP call fails (exit 2) naming the cap.
add_test(NAME hip_corpus_large.conv_big.gfx1100.cap
  COMMAND sh -c "out=$(\"$1\" run --processor gfx1100 --max-work-items 16M \
-- \"$2\" 2>&1); \
code=$?; echo \"$out\" | tail -3; [ $code -eq 2 ] && \
echo \"$out\" | grep -q '26214400 work-items exceed the work cap'" sh
          $<TARGET_FILE:redline> ${dir}/conv_big)
set_tests_properties(hip_corpus_large.conv_big.gfx1100.cap PROPERTIES
  LABELS "hip_corpus;integration" TIMEOUT 300)
