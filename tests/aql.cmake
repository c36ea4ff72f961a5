# Tests of rl_aql: the ring protocol against an in-memory queue with a
# consumer thread, and lowering/census/apply on the vecchain workload. Also
# builds the publish benchmark (a plain executable, not a test).
find_package(Threads REQUIRED)

add_library(rl_test_aql_fake_queue STATIC unit/aql_fake_queue.c)
target_link_libraries(rl_test_aql_fake_queue PUBLIC rl_base Threads::Threads)
target_include_directories(rl_test_aql_fake_queue PUBLIC
  ${CMAKE_CURRENT_SOURCE_DIR}/unit)

rl_add_unit_test(aql_ring_test
  SOURCES unit/aql_ring_test.c
  LIBS rl_device rl_aql rl_test_aql_fake_queue)

rl_add_unit_test(aql_dispatch_test
  SOURCES unit/aql_dispatch_test.c LIBS rl_aql)

rl_add_unit_test(aql_lower_test
  SOURCES unit/aql_lower_test.c
  LIBS rl_aql rl_kernels_workloads rl_capture)
add_dependencies(aql_lower_test rl_kernels)

add_executable(aql_publish_bench bench/aql_publish_bench.c)
target_link_libraries(aql_publish_bench PRIVATE
  rl_device rl_aql rl_kernels_workloads rl_test_aql_fake_queue)
target_compile_definitions(aql_publish_bench PRIVATE
  RL_KERNELS_DIR="${RL_KERNELS_DIR}")
add_dependencies(aql_publish_bench rl_kernels)

# The compiled patch table every route applies (capture/bind_table.c) and
# the shared fit rule, against a fresh full evaluation of every launch.
rl_add_unit_test(bind_table_test
  SOURCES unit/bind_table_test.c
  LIBS rl_capture rl_kernels_workloads)
add_dependencies(bind_table_test rl_kernels)
