# sim/sim.cmake — rl_sim: the simulated GPU device
# (sim/sim.h). It implements the device interface
# (redline/device/device.h) and decodes packets with rl_aql's aql_decode.c
# and rl_pm4's decoder, the ones `redline lower` uses.
#
# Its core is six modules, one sub-folder and one header each, lowest
# first; a module calls only the ones below it (architecture_calls checks
# it from the objects, docs/ARCHITECTURE.md "The simulator's core"):
#   clock   sim_clock.h   timestamps and the waits' poll and sleep phases
#   mem     sim_mem.h     allocations, loaded kernels, the cache model, the
#                         device's state record
#   signal  sim_signal.h  HSA signals and the waits on them
#   wg      sim_wg.h      batches of dispatches run to retirement, work-groups,
#                         hazards, dispatch log, trace, access log
#   cp      sim_cp.h      queues, the command-processor thread, PM4 IBs
#   device  sim/sim.h     the device object and the rl_device_t vtable
find_package(Threads REQUIRED)
set(RL_SIM_CLOCK_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/clock/sim_clock.c
  ${CMAKE_CURRENT_LIST_DIR}/clock/sim_spin.c)
set(RL_SIM_MEM_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/mem/sim_memory.c
  ${CMAKE_CURRENT_LIST_DIR}/mem/sim_loader.c
  ${CMAKE_CURRENT_LIST_DIR}/mem/sim_cache.c)
set(RL_SIM_SIGNAL_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/signal/sim_signal.c)
set(RL_SIM_WG_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/wg/sim_schedule.c
  ${CMAKE_CURRENT_LIST_DIR}/wg/sim_parallel.c
  ${CMAKE_CURRENT_LIST_DIR}/wg/sim_coop.c
  ${CMAKE_CURRENT_LIST_DIR}/wg/sim_wg.c
  ${CMAKE_CURRENT_LIST_DIR}/wg/sim_retire.c
  ${CMAKE_CURRENT_LIST_DIR}/wg/sim_hazard_checker.c
  ${CMAKE_CURRENT_LIST_DIR}/wg/sim_report.c
  ${CMAKE_CURRENT_LIST_DIR}/wg/sim_trace.c
  ${CMAKE_CURRENT_LIST_DIR}/wg/sim_access_log.c)
set(RL_SIM_CP_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/cp/sim_queue.c
  ${CMAKE_CURRENT_LIST_DIR}/cp/sim_cp.c
  ${CMAKE_CURRENT_LIST_DIR}/cp/sim_pm4.c
  ${CMAKE_CURRENT_LIST_DIR}/cp/sim_pm4_dispatch.c
  ${CMAKE_CURRENT_LIST_DIR}/cp/sim_pm4_batch.c)
set(RL_SIM_DEVICE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/device/sim_device.c
  ${CMAKE_CURRENT_LIST_DIR}/device/sim_noop_executor.c)
add_library(rl_sim STATIC
  ${RL_SIM_CLOCK_SOURCES} ${RL_SIM_MEM_SOURCES} ${RL_SIM_SIGNAL_SOURCES}
  ${RL_SIM_WG_SOURCES} ${RL_SIM_CP_SOURCES} ${RL_SIM_DEVICE_SOURCES})
# sim.h: the device and its observation API (dispatch log, hazards, launch
# trace); sim_executor.h: the interface executors implement; sim_math.h:
# the float model every executor shares. The modules' headers are private.
rl_module_headers(rl_sim FOLDER sim
  SUBFOLDERS clock mem signal wg cp device
  EXPORT sim.h sim_executor.h sim_math.h)
target_link_libraries(rl_sim PUBLIC rl_device rl_capture rl_aql rl_pm4
  Threads::Threads)
