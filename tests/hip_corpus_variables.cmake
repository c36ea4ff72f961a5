# tests/hip_corpus_variables.cmake — the negative control of code object
# variable buffers on the corpus `globals` capture (variable_copy.sh): after
# its shadow test wrote the capture, the shadow must fail on the variable's
# region when the replay binds it to a separate copy.
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
