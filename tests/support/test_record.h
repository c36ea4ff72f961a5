// tests/support/test_record.h — a workload recorded through the funnel on
// the record-only device (nothing executes), for the tests of what is built
// from a capture (bind table, AQL and PM4 lowering), and the fixed buffer
// addresses those tests bind it at. Every helper asserts (cmocka).
#ifndef REDLINE_TESTS_SUPPORT_TEST_RECORD_H_
#define REDLINE_TESTS_SUPPORT_TEST_RECORD_H_

#include <stdint.h>

#include "redline/capture.h"

// Records workload |workload| (kernels/workloads/workload.h, seed 1) with
// the code object at |code_object| into a new capture the caller destroys.
rl_capture_t* rl_test_record_null(const char* workload,
                                  const char* code_object);

// One device address per buffer of |capture|: |base| + 1 MiB per buffer
// index, in a calloc'd array the caller frees.
uint64_t* rl_test_buffer_addresses(const rl_capture_t* capture, uint64_t base);

#endif  // REDLINE_TESTS_SUPPORT_TEST_RECORD_H_
