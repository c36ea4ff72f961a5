# redline/device/device_funnel.cmake — the device interface layer:
#   rl_device         the interface every device implements (device.h) and
#                     the AQL ring bound to a device queue (device_ring.h);
#   rl_device_funnel  the recording funnel's device over an rl_device_t
#                     (device_funnel.h), publishing launches with the AQL
#                     ring protocol.
add_library(rl_device STATIC ${CMAKE_CURRENT_LIST_DIR}/device_ring.c)
rl_module_headers(rl_device FOLDER redline/device
  EXPORT device.h device_ring.h)
target_link_libraries(rl_device PUBLIC rl_aql rl_base)

# The funnel's device and the check that a device runs a capture's kernels
# (both need the capture model).
add_library(rl_device_funnel STATIC ${CMAKE_CURRENT_LIST_DIR}/device_funnel.c
  ${CMAKE_CURRENT_LIST_DIR}/device_kernels.c)
rl_module_headers(rl_device_funnel FOLDER redline/device
  EXPORT device_funnel.h device_kernels.h)
target_link_libraries(rl_device_funnel PUBLIC rl_device rl_aql rl_capture rl_base)
