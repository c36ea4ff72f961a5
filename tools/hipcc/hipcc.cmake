# tools/hipcc/hipcc.cmake — redline-hipcc, the HIP compiler driver
# (docs/hip-corpus.md): the script, configured with the toolchain found here,
# the ISA-version control libraries it adds to Debian's rocm-device-libs
# for the processors Debian 12's 5.2 bitcode predates, and the ockl
# corrections it links over Debian's ockl.bc (ockl_fixes.c).
#
#   build/tools/redline-hipcc                  the driver
#   build/tools/hipcc-devlib/oclc_isa_version_<N>.bc, ockl_fixes.bc
#   installed: bin/redline-hipcc, LIBDIR/redline/hipcc-devlib/*.bc
set(RL_HIPCC_ARCHS gfx1100 gfx1151 gfx1201)
set(RL_HIPCC_DEVLIB_DIR ${CMAKE_CURRENT_BINARY_DIR}/hipcc-devlib)
set(RL_HIPCC ${CMAKE_CURRENT_BINARY_DIR}/redline-hipcc
  CACHE INTERNAL "The redline-hipcc driver in the build tree")

find_path(RL_ROCM_DEVICE_LIBS ockl.bc
  PATHS /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/amdgcn/bitcode
        /usr/lib/x86_64-linux-gnu/amdgcn/bitcode
  NO_DEFAULT_PATH)
if(RL_ROCM_DEVICE_LIBS)
  set(RL_HIPCC_DEVICE_LIBS ${RL_ROCM_DEVICE_LIBS})
else()
  # Not installed at configure time: the driver says so when it runs.
  set(RL_HIPCC_DEVICE_LIBS /usr/lib/x86_64-linux-gnu/amdgcn/bitcode)
endif()
set(RL_HIPCC_HAVE_DEVICE_LIBS ${RL_ROCM_DEVICE_LIBS} CACHE INTERNAL "")

set(RL_HIPCC_CLANG ${RL_HIP_CLANG})
set(RL_HIPCC_INSTALL_DEVLIB ${CMAKE_INSTALL_LIBDIR}/redline/hipcc-devlib)
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/hipcc/redline-hipcc.in
  ${RL_HIPCC} @ONLY
  FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
                   GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)

# The C front end of clang-19 next to clang++.
get_filename_component(rl_hipcc_llvm_bin ${RL_HIP_CLANG} DIRECTORY)
set(rl_hipcc_outputs)
foreach(arch IN LISTS RL_HIPCC_ARCHS)
  string(REGEX MATCH "[0-9]+" num ${arch})
  string(LENGTH ${num} len)
  # gfx<major><minor><stepping>, major two digits here: 1151 -> 11501.
  string(SUBSTRING ${num} 0 2 major)
  string(SUBSTRING ${num} 2 1 minor)
  string(SUBSTRING ${num} 3 1 stepping)
  math(EXPR version "${major} * 1000 + ${minor} * 100 + ${stepping}")
  set(out ${RL_HIPCC_DEVLIB_DIR}/oclc_isa_version_${num}.bc)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${RL_HIPCC_DEVLIB_DIR}
    COMMAND ${rl_hipcc_llvm_bin}/clang -x c --target=amdgcn-amd-amdhsa
            -nogpulib -Xclang -mcode-object-version=none -O2 -emit-llvm -c
            -DRL_ISA_VERSION=${version} -o ${out}
            ${CMAKE_CURRENT_SOURCE_DIR}/hipcc/oclc_isa_version.c
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/hipcc/oclc_isa_version.c
    COMMENT "redline-hipcc: ISA version ${version} for ${arch}"
    VERBATIM)
  list(APPEND rl_hipcc_outputs ${out})
endforeach()
set(out ${RL_HIPCC_DEVLIB_DIR}/ockl_fixes.bc)
add_custom_command(OUTPUT ${out}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${RL_HIPCC_DEVLIB_DIR}
  COMMAND ${rl_hipcc_llvm_bin}/clang -x c --target=amdgcn-amd-amdhsa
          -nogpulib -Xclang -mcode-object-version=none -O2
          -Xclang -disable-llvm-passes -emit-llvm -c -o ${out}
          ${CMAKE_CURRENT_SOURCE_DIR}/hipcc/ockl_fixes.c
  DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/hipcc/ockl_fixes.c
  COMMENT "redline-hipcc: ockl corrections"
  VERBATIM)
list(APPEND rl_hipcc_outputs ${out})
# An empty module with the AMDGPU data layout: the base llvm-link links
# Debian's ockl and the fixes into.
set(out ${RL_HIPCC_DEVLIB_DIR}/link_base.bc)
add_custom_command(OUTPUT ${out}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${RL_HIPCC_DEVLIB_DIR}
  COMMAND ${rl_hipcc_llvm_bin}/clang -x c --target=amdgcn-amd-amdhsa
          -nogpulib -Xclang -mcode-object-version=none -emit-llvm -c
          -o ${out} /dev/null
  COMMENT "redline-hipcc: empty AMDGPU module"
  VERBATIM)
list(APPEND rl_hipcc_outputs ${out})
add_custom_target(rl_hipcc ALL DEPENDS ${rl_hipcc_outputs})
set(RL_HIPCC_DEVLIB_FILES ${rl_hipcc_outputs}
  CACHE INTERNAL "The bitcode files redline-hipcc reads (build tree)")

install(PROGRAMS ${RL_HIPCC} DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${rl_hipcc_outputs} DESTINATION ${RL_HIPCC_INSTALL_DEVLIB})
install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/hipcc/redline-hipcc.1
  DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
