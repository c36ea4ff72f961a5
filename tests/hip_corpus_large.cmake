# tests/hip_corpus_large.cmake — the large HIP corpus programs
# (docs/hip-corpus.md, "Large programs"): the sizes public samples use, which
# ordinary corpus programs avoid to keep CI short; after
# tests/hip_corpus.cmake.
#
#   matmul_big  2048x1024 by 1024x1024 float product (2.1 G multiply-adds)
#   conv_big    4096x4096 5x5 convolution, one thread per input pixel of
#               each 20x20 tile: 26,214,400 work-items: `redline run`
#               gives a program the hardware's limits, and a replay's
#               default budget is the capture's largest launch
#               (redline/limits.h), so neither needs an option
#
# In CI (gfx1100, labelled slow: the sanitizer stage skips them):
#   hip_corpus_large.<name>.gfx1100.shadow   `redline run --capture` (the
#       program runs and checks itself: exit 0), then the shadow over eager,
#       aql and hip without adversarial copies (each arm replays the whole
#       product again; the adversarial ones run several times slower), with
#       the default bound (a stall on the simulator) and budgets
#   hip_corpus_large.<name>.gfx1100.corrupt  negative control: with
#       REDLINE_CORPUS_CORRUPT=1 the program must exit 1
#   hip_corpus_large.conv_big.gfx1100.cap    negative control of the budget:
#       with --max-work-items 16M the launch is refused (exit 2)
#   hip_corpus_large.conv_big.gfx1100.replay_cap  the same for the replay:
#       the capture's shadow with --max-work-items 16M is refused (exit 4)
#
# Outside CI (label "large", which tools/dev.sh's test stage leaves out:
# minutes per program and target, docs/hip-corpus.md has the times):
#   hip_corpus_large.<name>.<arch>.default_shadow for gfx1100, gfx1151 and
#       gfx1201: `redline run --capture`, then the DEFAULT shadow (every
#       arm it includes, adversarial passes and the oracle sample) with no
#       option. `ctest -L large` builds their programs first
#       (hip_corpus_large.build, a fixture).
set(RL_HIP_CORPUS_LARGE matmul_big conv_big)
set(RL_HIP_CORPUS_LARGE_ARCHS gfx1100 gfx1151 gfx1201)
if(NOT RL_HIP_CORPUS OR NOT RL_HIPCC_HAVE_DEVICE_LIBS OR NOT RL_HIP_CORPUS_RUN)
  return()
endif()
set(rl_large_outputs)
set(rl_large_other_outputs)
foreach(arch IN LISTS RL_HIP_CORPUS_LARGE_ARCHS)
  set(dir ${RL_HIP_CORPUS_DIR}/${arch})
  foreach(name IN LISTS RL_HIP_CORPUS_LARGE)
    add_custom_command(OUTPUT ${dir}/${name}
      COMMAND ${RL_HIPCC} --offload-arch=${arch} ${RL_HIP_CORPUS_FLAGS}
              -Wall -Werror -o ${dir}/${name} ${RL_HIP_CORPUS_SRC}/${name}.hip
      DEPENDS ${RL_HIP_CORPUS_SRC}/${name}.hip ${rl_corpus_deps} rl_hipcc
      COMMENT "redline-hipcc ${arch}: hip_corpus/${name} (large)"
      VERBATIM)
    if(arch STREQUAL "gfx1100")
      list(APPEND rl_large_outputs ${dir}/${name})
    else()
      list(APPEND rl_large_other_outputs ${dir}/${name})
    endif()
    set(t hip_corpus_large.${name}.${arch})
    add_test(NAME ${t}.default_shadow
      COMMAND ${RL_HIP_CORPUS_SRC}/corpus_run.sh shadow
              $<TARGET_FILE:redline> ${arch} ${dir}/${name}.default.rlc
              ${dir}/${name})
    set_tests_properties(${t}.default_shadow PROPERTIES
      LABELS "hip_corpus;integration;slow;large" TIMEOUT 7200
      FIXTURES_REQUIRED rl_hip_corpus_large_build
      ENVIRONMENT "RL_CORPUS_ARMS=default")
  endforeach()
endforeach()
add_custom_target(rl_hip_corpus_large ALL DEPENDS ${rl_large_outputs})
add_custom_target(rl_hip_corpus_large_targets DEPENDS ${rl_large_other_outputs})
add_test(NAME hip_corpus_large.build
  COMMAND ${CMAKE_COMMAND} --build ${CMAKE_BINARY_DIR}
          --target rl_hip_corpus_large rl_hip_corpus_large_targets)
set_tests_properties(hip_corpus_large.build PROPERTIES
  LABELS "hip_corpus;slow;large" TIMEOUT 1800
  FIXTURES_SETUP rl_hip_corpus_large_build)

set(dir ${RL_HIP_CORPUS_DIR}/gfx1100)
foreach(name IN LISTS RL_HIP_CORPUS_LARGE)
  set(t hip_corpus_large.${name}.gfx1100)
  foreach(mode shadow corrupt)
    add_test(NAME ${t}.${mode}
      COMMAND ${RL_HIP_CORPUS_SRC}/corpus_run.sh ${mode}
              $<TARGET_FILE:redline> gfx1100 ${dir}/${name}.rlc ${dir}/${name})
    set_tests_properties(${t}.${mode} PROPERTIES
      LABELS "hip_corpus;integration;slow" TIMEOUT 1800
      ENVIRONMENT "RL_CORPUS_ARMS=eager,aql,hip;RL_CORPUS_SHADOW_OPTS=--adversarial-seeds 0")
  endforeach()
endforeach()
set_tests_properties(hip_corpus_large.conv_big.gfx1100.shadow PROPERTIES
  FIXTURES_SETUP rl_hip_corpus_large_conv_capture)
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
# The replay's budget: the default admits the capture's own largest launch
# (the shadow test above passes without an option); a budget the caller
# sets still wins, and the shadow of the same capture under 16M is refused
# before any arm runs (exit 4, naming the launch and the limit).
add_test(NAME hip_corpus_large.conv_big.gfx1100.replay_cap
  COMMAND sh -c "out=$(\"$1\" shadow \"$2\" --executor isa \
--max-work-items 16M 2>&1); \
code=$?; echo \"$out\" | tail -3; [ $code -eq 4 ] && \
echo \"$out\" | grep -q '26214400 work-items exceed the limit of 16777216'" sh
          $<TARGET_FILE:redline> ${dir}/conv_big.rlc)
set_tests_properties(hip_corpus_large.conv_big.gfx1100.replay_cap PROPERTIES
  LABELS "hip_corpus;integration;slow" TIMEOUT 300
  FIXTURES_REQUIRED rl_hip_corpus_large_conv_capture)
