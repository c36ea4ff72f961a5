# redline/engine.cmake — rl_engine: the replay engine (redline/replay.h):
# devices by kind, the replay lifecycle (contract, prepare, run, poison,
# quarantine), bindings and pointer rebasing, route proof.
# device_open.c composes the devices (sim with its executors, rocr, drm).
rl_module_library(rl_engine STATIC FOLDER redline
  SOURCES
    replay.c
    replay_contract.c
    replay_prepare.c
    replay_run.c
    replay_poison.c
    # The routes behind redline/replay_route.h: the registry and what they
    # share, then one file per route.
    replay_route.c
    replay_route_aql.c
    replay_route_pm4.c
    replay_route_drm.c
    device_open.c
  API replay.h)
target_link_libraries(rl_engine PUBLIC
  rl_device rl_device_funnel rl_aql rl_pm4 rl_sim rl_sim_isa rl_kernels_ref rl_capture)
target_link_libraries(rl_engine PUBLIC rl_backends)
