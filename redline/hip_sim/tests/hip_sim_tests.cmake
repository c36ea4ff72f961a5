# redline/hip_sim/tests/hip_sim_tests.cmake — the HIP runtime over the
# simulator on ordinary HIP programs of its own (this directory), built by
# clang-19 with Debian's HIP headers for gfx1100 and gfx1151 and linked
# against Debian's libamdhip64.so.5 as any HIP 5 program is; they run on
# build/lib/redline's libamdhip64 through `redline run`
# (hip_sim_test.sh has the cases and their negative controls). Included
# from tests/CMakeLists.txt.
find_program(RL_CLANG_OFFLOAD_BUNDLER
  NAMES clang-offload-bundler-19 clang-offload-bundler)
find_library(RL_DEBIAN_AMDHIP64 NAMES amdhip64)
set(RL_HIP_SIM_TESTS_SRC ${CMAKE_CURRENT_LIST_DIR})
set(RL_HIP_SIM_TESTS_DIR ${CMAKE_BINARY_DIR}/redline/hip_sim/tests)

# rl_hip_sim_test_program(NAME SOURCE [--genco] [--gfx1151]): builds NAME
# from SOURCE with clang-19 (the device-library shim hip_sim_device_lib.h
# force-included, buffered device printf) for gfx1100, and gfx1151 too with
# --gfx1151; --genco builds a gfx1100 code object NAME instead of a
# program. The one compile rule of these tests: redline-hipcc replaces it
# when it lands.
function(rl_hip_sim_test_program name source)
  set(output ${RL_HIP_SIM_TESTS_DIR}/${name})
  set(flags -x hip -nogpulib -mprintf-kind=buffered -O2
      -include ${RL_HIP_SIM_TESTS_SRC}/hip_sim_device_lib.h)
  if("--genco" IN_LIST ARGN)
    set(command ${flags} --offload-arch=gfx1100 --cuda-device-only
        --no-gpu-bundle-output)
    set(link)
  else()
    set(command ${flags} --offload-arch=gfx1100)
    if("--gfx1151" IN_LIST ARGN)
      list(APPEND command --offload-arch=gfx1151)
    endif()
    set(link -x none ${RL_DEBIAN_AMDHIP64})
  endif()
  add_custom_command(OUTPUT ${output}
    COMMAND ${RL_HIP_CLANG} ${command} -o ${output}
      ${RL_HIP_SIM_TESTS_SRC}/${source} ${link}
    DEPENDS ${RL_HIP_SIM_TESTS_SRC}/${source}
      ${RL_HIP_SIM_TESTS_SRC}/hip_sim_check.h
      ${RL_HIP_SIM_TESTS_SRC}/hip_sim_device_lib.h
    COMMENT "HIP program ${name}"
    VERBATIM)
  set(RL_HIP_SIM_TEST_OUTPUTS ${RL_HIP_SIM_TEST_OUTPUTS} ${output}
      PARENT_SCOPE)
endfunction()

# Not under sanitizers: the programs are not instrumented, so the sanitizer
# runtime the library needs cannot come first in their link map (as for
# hip_interposer_test); hip_standin_test covers the library there.
if(RL_SANITIZE)
  return()
endif()
if(RL_HIP_CLANG AND RL_CLANG_OFFLOAD_BUNDLER AND RL_DEBIAN_AMDHIP64)
  file(MAKE_DIRECTORY ${RL_HIP_SIM_TESTS_DIR})
  set(RL_HIP_SIM_TEST_OUTPUTS)
  rl_hip_sim_test_program(hip_sim_api hip_sim_api.hip --gfx1151)
  foreach(program module printf trap capture)
    rl_hip_sim_test_program(hip_sim_${program} hip_sim_${program}.hip)
  endforeach()
  rl_hip_sim_test_program(hip_sim_kernels.co hip_sim_kernels.hip --genco)
  add_custom_target(rl_hip_sim_test_programs ALL
    DEPENDS ${RL_HIP_SIM_TEST_OUTPUTS})
  add_test(NAME hip_sim_test
    COMMAND sh ${RL_HIP_SIM_TESTS_SRC}/hip_sim_test.sh $<TARGET_FILE:redline>
      ${RL_HIP_SIM_TESTS_DIR} ${CMAKE_CURRENT_BINARY_DIR}/hip_sim_test)
  set_tests_properties(hip_sim_test PROPERTIES
    LABELS "integration;isa" TIMEOUT 300)
else()
  message(WARNING "hip_sim_test is not built: it needs clang++-19 "
    "(${RL_HIP_CLANG}), clang-offload-bundler (clang-tools-19: "
    "${RL_CLANG_OFFLOAD_BUNDLER}) and libamdhip64-dev (${RL_DEBIAN_AMDHIP64})")
endif()
