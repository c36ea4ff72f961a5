# The sample capture file capture_file_test (tests/unit/capture/) writes
# unless RL_CAPTURE_FILE_SAMPLE (env) names another path: the seed of the
# fuzz_capture_reader corpus.
set(RL_CAPTURE_FILE_SAMPLE "${CMAKE_CURRENT_BINARY_DIR}/capture_file_sample.rlc")
