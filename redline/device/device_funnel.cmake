# redline/device/device_funnel.cmake — rl_device_funnel: the recording
# funnel's device over an rl_device_t (device_funnel.h), publishing launches
# with the AQL ring protocol (rl_aql, defined in aql/ after this file is
# read; CMake resolves the name at generate time).
add_library(rl_device_funnel STATIC device/device_funnel.c)
target_link_libraries(rl_device_funnel PUBLIC rl_aql rl_capture rl_base)
