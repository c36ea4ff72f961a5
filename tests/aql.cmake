# The in-memory AQL queue with a consumer thread that the ring tests
# (tests/unit/aql/) and the publish benchmark use, and the publish
# benchmark itself (a plain executable, not a test).
find_package(Threads REQUIRED)

add_library(rl_test_aql_fake_queue STATIC unit/aql/aql_fake_queue.c)
target_link_libraries(rl_test_aql_fake_queue PUBLIC rl_base Threads::Threads)
target_include_directories(rl_test_aql_fake_queue PUBLIC
  ${CMAKE_CURRENT_SOURCE_DIR}/unit/aql)

# rl_aql_program_apply: re-binding a lowered program outside a replay, for
# the tests and the publish benchmark (tests/unit/aql/aql_program_apply.h).
add_library(rl_test_aql_apply STATIC unit/aql/aql_program_apply.c)
target_link_libraries(rl_test_aql_apply PUBLIC rl_aql rl_capture)

add_executable(aql_publish_bench bench/aql_publish_bench.c)
target_link_libraries(aql_publish_bench PRIVATE
  rl_device rl_aql rl_kernels_workloads rl_test_aql_fake_queue
  rl_test_aql_apply)
target_compile_definitions(aql_publish_bench PRIVATE
  RL_KERNELS_DIR="${RL_KERNELS_DIR}")
add_dependencies(aql_publish_bench rl_kernels)
