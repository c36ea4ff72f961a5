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
# sim.h: the device and its observation API (dispatch log, hazards, launch
# trace); sim_executor.h: the interface executors implement; sim_math.h:
# the float model every executor shares. The modules' headers are private.
rl_module_library(rl_sim STATIC FOLDER sim
  SOURCES
    clock/sim_clock.c clock/sim_spin.c
    mem/sim_memory.c mem/sim_loader.c mem/sim_cache.c
    signal/sim_signal.c
    wg/sim_schedule.c wg/sim_parallel.c wg/sim_coop.c wg/sim_wg.c
    wg/sim_retire.c wg/sim_hazard_checker.c wg/sim_report.c wg/sim_trace.c
    wg/sim_access_log.c
    cp/sim_queue.c cp/sim_cp.c cp/sim_pm4.c cp/sim_pm4_dispatch.c
    cp/sim_pm4_batch.c
    device/sim_device.c device/sim_noop_executor.c
  SUBFOLDERS clock mem signal wg cp device
  EXPORT sim.h sim_executor.h sim_math.h)
target_link_libraries(rl_sim PUBLIC rl_device rl_capture rl_aql rl_pm4
  Threads::Threads)
