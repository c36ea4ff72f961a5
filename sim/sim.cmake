# sim/sim.cmake — the simulated GPU device (sim/sim.h). It implements the
# device interface (redline/device/device.h) and decodes packets with
# rl_aql's aql_decode.c and rl_pm4's decoder, the ones `redline lower` uses.
#
# Its core is six modules, one sub-folder, one library and one header each,
# lowest first; a module calls only the ones below it (architecture_calls
# checks it from the objects, docs/ARCHITECTURE.md "The simulator's core"):
#   rl_sim_clock   clock   sim_clock.h   timestamps and the waits' poll and
#                                        sleep phases
#   rl_sim_mem     mem     sim_mem.h     allocations, loaded kernels, the
#                                        cache model, the device's state record
#   rl_sim_signal  signal  sim_signal.h  HSA signals and the waits on them
#   rl_sim_wg      wg      sim_wg.h      batches of dispatches run to
#                                        retirement, work-groups, hazards,
#                                        dispatch log, trace, access log
#   rl_sim_cp      cp      sim_cp.h      queues, the command-processor
#                                        thread, PM4 IBs
#   rl_sim         device  sim/sim.h     the device object and the
#                                        rl_device_t vtable
# A module's header is INTERNAL: it is seen by the modules above it that
# name it in USES, and by no target outside the simulator's core (their
# probes in tests/architecture/architecture.cmake). Link rl_sim to use the
# simulator: it links the whole core.
find_package(Threads REQUIRED)
# sim.h: the device and its observation API (dispatch log, hazards, launch
# trace); sim_executor.h: the interface executors implement; sim_math.h:
# the float model every executor shares. Headers only: what they declare
# is defined by the modules below (sim_executor.h's rl_sim_wg_* by
# rl_sim_wg, sim.h by rl_sim).
rl_module_library(rl_sim_api INTERFACE FOLDER sim
  EXPORT sim.h sim_executor.h sim_math.h)
target_link_libraries(rl_sim_api INTERFACE rl_device rl_capture rl_base)

rl_module_library(rl_sim_clock STATIC FOLDER sim/clock
  SOURCES sim_clock.c sim_spin.c
  INTERNAL sim_clock.h)
target_link_libraries(rl_sim_clock PUBLIC rl_sim_api Threads::Threads)

rl_module_library(rl_sim_mem STATIC FOLDER sim/mem
  SOURCES sim_memory.c sim_loader.c sim_cache.c
  INTERNAL sim_mem.h)
target_link_libraries(rl_sim_mem PUBLIC rl_sim_api rl_aql Threads::Threads)

rl_module_library(rl_sim_signal STATIC FOLDER sim/signal
  SOURCES sim_signal.c
  INTERNAL sim_signal.h
  USES rl_sim_mem rl_sim_clock)

rl_module_library(rl_sim_wg STATIC FOLDER sim/wg
  SOURCES sim_schedule.c sim_parallel.c sim_coop.c sim_wg.c sim_retire.c
    sim_hazard_checker.c sim_report.c sim_trace.c sim_access_log.c
  INTERNAL sim_wg.h
  USES rl_sim_signal rl_sim_mem rl_sim_clock)
target_link_libraries(rl_sim_wg PUBLIC rl_aql)

rl_module_library(rl_sim_cp STATIC FOLDER sim/cp
  SOURCES sim_queue.c sim_cp.c sim_pm4.c sim_pm4_dispatch.c sim_pm4_batch.c
  INTERNAL sim_cp.h
  USES rl_sim_wg rl_sim_signal rl_sim_mem rl_sim_clock)
target_link_libraries(rl_sim_cp PUBLIC rl_pm4 rl_aql)

rl_module_library(rl_sim STATIC FOLDER sim/device
  SOURCES sim_device.c sim_noop_executor.c
  USES rl_sim_cp rl_sim_wg rl_sim_signal rl_sim_mem rl_sim_clock)
target_link_libraries(rl_sim PUBLIC rl_sim_api rl_device rl_capture rl_aql
  rl_pm4 Threads::Threads)

# The core's libraries, lowest last (library.cmake puts every object of
# them into libredline; architecture_calls reads them module by module).
set(RL_SIM_MODULES rl_sim rl_sim_cp rl_sim_wg rl_sim_signal rl_sim_mem
  rl_sim_clock)
