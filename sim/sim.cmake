# sim/sim.cmake — rl_sim: the simulated GPU device
# (sim/sim.h). It implements the device interface
# (redline/device/device.h) and decodes packets with rl_aql's aql_decode.c
# and rl_pm4's decoder, the ones `redline lower` uses.
find_package(Threads REQUIRED)
add_library(rl_sim STATIC
  ${CMAKE_CURRENT_LIST_DIR}/sim_device.c
  ${CMAKE_CURRENT_LIST_DIR}/sim_memory.c
  ${CMAKE_CURRENT_LIST_DIR}/sim_loader.c
  ${CMAKE_CURRENT_LIST_DIR}/sim_signal.c
  ${CMAKE_CURRENT_LIST_DIR}/sim_spin.c
  ${CMAKE_CURRENT_LIST_DIR}/sim_queue.c
  ${CMAKE_CURRENT_LIST_DIR}/sim_cp.c
  ${CMAKE_CURRENT_LIST_DIR}/sim_schedule.c
  ${CMAKE_CURRENT_LIST_DIR}/sim_parallel.c
  ${CMAKE_CURRENT_LIST_DIR}/sim_coop.c
  ${CMAKE_CURRENT_LIST_DIR}/sim_wg.c
  ${CMAKE_CURRENT_LIST_DIR}/sim_noop_executor.c
  ${CMAKE_CURRENT_LIST_DIR}/sim_hazard_checker.c
  ${CMAKE_CURRENT_LIST_DIR}/sim_cache.c
  ${CMAKE_CURRENT_LIST_DIR}/sim_trace.c
  ${CMAKE_CURRENT_LIST_DIR}/sim_access_log.c
  ${CMAKE_CURRENT_LIST_DIR}/sim_pm4.c
  ${CMAKE_CURRENT_LIST_DIR}/sim_pm4_dispatch.c
  ${CMAKE_CURRENT_LIST_DIR}/sim_pm4_batch.c
)
# sim.h: the device and its observation API (dispatch log, hazards, launch
# trace); sim_executor.h: the interface executors implement; sim_math.h:
# the float model every executor shares.
rl_module_headers(rl_sim FOLDER sim
  EXPORT sim.h sim_executor.h sim_math.h)
target_link_libraries(rl_sim PUBLIC rl_device rl_capture rl_aql rl_pm4
  Threads::Threads)
