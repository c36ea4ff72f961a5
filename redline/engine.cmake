# redline/engine.cmake — rl_engine: the replay engine (redline/replay.h):
# devices by kind, the replay lifecycle (contract, prepare, run, poison,
# quarantine), bindings and pointer rebasing, route proof.
# device_open.c composes the devices (sim with its executors, rocr, drm).
add_library(rl_engine STATIC
  ${CMAKE_CURRENT_LIST_DIR}/replay.c
  ${CMAKE_CURRENT_LIST_DIR}/replay_contract.c
  ${CMAKE_CURRENT_LIST_DIR}/replay_prepare.c
  ${CMAKE_CURRENT_LIST_DIR}/replay_run.c
  ${CMAKE_CURRENT_LIST_DIR}/replay_poison.c
  # The routes behind redline/replay_route.h: the registry and what they
  # share, then one file per route.
  ${CMAKE_CURRENT_LIST_DIR}/replay_route.c
  ${CMAKE_CURRENT_LIST_DIR}/replay_route_aql.c
  ${CMAKE_CURRENT_LIST_DIR}/replay_route_pm4.c
  ${CMAKE_CURRENT_LIST_DIR}/replay_route_drm.c
  ${CMAKE_CURRENT_LIST_DIR}/device_open.c
)
rl_module_headers(rl_engine FOLDER redline API replay.h)
target_link_libraries(rl_engine PUBLIC
  rl_device rl_device_funnel rl_aql rl_pm4 rl_sim rl_sim_isa rl_kernels_ref rl_capture)
target_link_libraries(rl_engine PUBLIC rl_backends)
