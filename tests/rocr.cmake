# tests/rocr.cmake — the rocr device (redline/backends/rocr_device.h) and
# `redline doctor` against the ROCr stand-in (tests/standins/hsa), plus the
# stand-in's own misuse detection. Nothing here needs a GPU: the stand-in
# runs the simulated device behind the real HSA API.
include(${CMAKE_CURRENT_LIST_DIR}/standins/hsa/standin_hsa.cmake)
