# capture/interposer/interposer.cmake — libredline_capture.so, the
# LD_PRELOAD interposer that captures an unmodified HIP program
# (interposer_internal.h lists its files, one concern each). A SHARED
# library embedding the capture model and the funnel; it exports only the
# HIP entry points it interposes.
find_package(Threads REQUIRED)
# The copy and fill kernels the interposer records device writes as
# (interposer_copy.hip), one code object per processor, embedded in the
# library so a capture needs no file beside it.
set(rl_ip_copy_dir ${CMAKE_BINARY_DIR}/lib/redline/copy)
file(MAKE_DIRECTORY ${rl_ip_copy_dir})
set(rl_ip_copy_files)
foreach(target IN LISTS RL_KERNEL_TARGETS)
  set(output ${rl_ip_copy_dir}/interposer_copy-${target}.co)
  add_custom_command(OUTPUT ${output}
    COMMAND ${RL_HIP_CLANG} -x hip -nogpulib -nogpuinc
            --offload-arch=${target} --cuda-device-only --no-gpu-bundle-output
            -O2 -o ${output} ${CMAKE_CURRENT_LIST_DIR}/interposer_copy.hip
    DEPENDS ${CMAKE_CURRENT_LIST_DIR}/interposer_copy.hip
    COMMENT "HIP ${target}: interposer copy kernels"
    VERBATIM)
  list(APPEND rl_ip_copy_files ${output})
endforeach()
add_custom_command(OUTPUT ${rl_ip_copy_dir}/interposer_copy_objects.c
  COMMAND ${CMAKE_COMMAND} -DOUTPUT=${rl_ip_copy_dir}/interposer_copy_objects.c
          -DSYMBOL=rl_ip_copy_objects "-DNAMES=${RL_KERNEL_TARGETS}"
          "-DFILES=${rl_ip_copy_files}"
          -P ${PROJECT_SOURCE_DIR}/cmake/EmbedFiles.cmake
  DEPENDS ${rl_ip_copy_files} ${PROJECT_SOURCE_DIR}/cmake/EmbedFiles.cmake
  COMMENT "Embedding the interposer copy kernels"
  VERBATIM)
rl_module_library(redline_capture SHARED FOLDER capture/interposer
  SOURCES
    interposer_window.c
    interposer_args.c
    interposer_issued.c
    interposer_forward.c
    interposer_load.c
    interposer_unseen.c
    interposer_vars.c
    interposer_copy.c
    interposer_host.c
    interposer_texture.c
    interposer_graph.c
    interposer_observe.c
    interposer_steps.c
    interposer_annotate.c
    interposer_write.c
  GENERATED ${rl_ip_copy_dir}/interposer_copy_objects.c
)
set_target_properties(rl_base ${RL_CAPTURE_MODULES} PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(redline_capture SYSTEM PRIVATE ${RL_HIP_INCLUDE_DIR})
target_compile_definitions(redline_capture PRIVATE __HIP_PLATFORM_AMD__ _GNU_SOURCE)
target_link_libraries(redline_capture PRIVATE rl_capture rl_base
  ${CMAKE_DL_LIBS} Threads::Threads)
target_link_options(redline_capture PRIVATE
  -Wl,--version-script=${CMAKE_CURRENT_LIST_DIR}/interposer.map
  ${RL_SHARED_NO_UNDEFINED} -Wl,-Bsymbolic)
# Beside the HIP runtime over the simulator (sim/hip_sim), where
# `redline run --capture` preloads it from.
set_target_properties(redline_capture PROPERTIES
  OUTPUT_NAME redline_capture
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib/redline
  LINK_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/interposer.map)
