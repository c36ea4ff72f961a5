# Tests of the capture file format (capture/capture_file*.c, capture_codec.c).
# The round-trip test writes its sample file to RL_CAPTURE_FILE_SAMPLE (env)
# or to ${CMAKE_CURRENT_BINARY_DIR}/capture_file_sample.rlc: the seed of the
# fuzz_capture_reader corpus.
set(RL_CAPTURE_FILE_SAMPLE "${CMAKE_CURRENT_BINARY_DIR}/capture_file_sample.rlc")
rl_add_unit_test(capture_file_test
  SOURCES unit/capture_file_test.c
  LIBS rl_capture)
target_compile_definitions(capture_file_test PRIVATE
  RL_CAPTURE_FILE_SAMPLE_DEFAULT="${RL_CAPTURE_FILE_SAMPLE}")
add_dependencies(capture_file_test rl_kernels)
