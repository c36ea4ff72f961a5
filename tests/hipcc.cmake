# tests/hipcc.cmake — redline-hipcc (tools/hipcc): option parsing, --genco
# code objects per processor, a whole program compiled and linked, and the
# usage/missing-tool errors with their exit codes (tests/hipcc/hipcc_test.sh).
# Not in sanitizer/fuzz builds: the driver is a script and the compiler is
# clang; nothing of redline's C code runs (tests/hip_corpus.cmake likewise).
if(RL_HIPCC_HAVE_DEVICE_LIBS AND NOT RL_SANITIZE AND NOT RL_FUZZ)
  add_test(NAME hipcc_test
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/hipcc/hipcc_test.sh ${RL_HIPCC}
            ${RL_LLVM_READELF})
  set_tests_properties(hipcc_test PROPERTIES LABELS "hipcc;tools" TIMEOUT 600)
endif()
