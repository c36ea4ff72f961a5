rl_add_unit_test(status_test SOURCES unit/status_test.c LIBS rl_base)
rl_add_unit_test(digest_test SOURCES unit/digest_test.c LIBS rl_base)
rl_add_unit_test(number_test SOURCES unit/number_test.c LIBS rl_base)
rl_add_unit_test(output_file_test SOURCES unit/output_file_test.c LIBS rl_base)
