# tests/hipcc.cmake — redline-hipcc (tools/hipcc): option parsing, --genco
# code objects per processor, a whole program compiled and linked, and the
# usage/missing-tool errors with their exit codes (tests/hipcc/hipcc_test.sh).
if(RL_HIPCC_HAVE_DEVICE_LIBS)
  add_test(NAME hipcc_test
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/hipcc/hipcc_test.sh ${RL_HIPCC}
            ${RL_LLVM_READELF})
  set_tests_properties(hipcc_test PROPERTIES LABELS "hipcc;tools" TIMEOUT 600)
endif()
