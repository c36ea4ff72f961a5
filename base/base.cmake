# rl_hw: hardware facts as header-only data (base/hw/): the per-family
# register and field tables and the facts every family shares.
add_library(rl_hw INTERFACE)
rl_module_headers(rl_hw FOLDER base/hw
  EXPORT hw_fields.h compute_registers.h gfx11_registers.h gfx12_registers.h)

# rl_base: status model, digests, small containers and the output-file
# writer every module uses, and the public API headers it implements
# (redline/status.h, redline/digest.h; every other API header comes with the
# module that implements it, cmake/Modules.cmake).
find_package(Threads REQUIRED)
add_library(rl_base STATIC
  base/status.c
  base/digest.c
  base/digest_long.c
  base/array.c
  base/cpu_pin.c
  base/number.c
  base/test_fault.c
  base/file.c
  base/output_file.c
  base/output_temp.c
  base/run_owner.c
  base/trace.c
)
rl_module_headers(rl_base FOLDER base
  EXPORT array.h byte_order.h clock.h cpu_pin.h file.h number.h output_file.h
         output_temp.h run_owner.h test_fault.h trace.h
  API status.h digest.h)
target_link_libraries(rl_base PUBLIC rl_hw PkgConfig::XXHASH Threads::Threads)
# The hashing loop is measured against memcpy (tests/bench/digest_bench.c);
# -O3 lets gcc schedule its unrolled block with the keys in registers, in
# every build type (about 0.7x memcpy at -O2 on 4-16 KiB regions, 0.85x+ at
# -O3).
set_source_files_properties(base/digest_long.c PROPERTIES COMPILE_OPTIONS -O3)

# Type-checks against Debian's ROCr, libdrm_amdgpu and HIP headers (headers
# only: the backends dlopen their libraries). Built with every build so a
# missing or changed header fails early. The header directories are found
# in the top-level CMakeLists.txt.
add_library(rl_runtime_headers_check OBJECT redline/backends/runtime_headers_check.c)
rl_module_headers(rl_runtime_headers_check FOLDER redline/backends)
target_link_libraries(rl_runtime_headers_check PRIVATE rl_aql rl_base)
target_include_directories(rl_runtime_headers_check SYSTEM PRIVATE
  ${RL_HSA_INCLUDE_DIR} ${RL_HIP_INCLUDE_DIR} ${LIBDRM_AMDGPU_INCLUDE_DIRS})
target_compile_definitions(rl_runtime_headers_check PRIVATE __HIP_PLATFORM_AMD__)
set_target_properties(rl_runtime_headers_check PROPERTIES EXCLUDE_FROM_ALL FALSE)
