# cmake/Install.cmake — what `cmake --install` puts under the prefix
# (docs/install.md has the layout and how to build against it):
#
#   bin/redline                          the CLI
#   bin/redline-hipcc                    the HIP compiler driver; its
#                                        bitcode in LIBDIR/redline/hipcc-devlib
#   share/man/man1/redline*.1            manual pages (from `redline help`)
#   share/bash-completion/completions/redline  bash completion (same)
#   LIBDIR/libredline.so.0[.x.y.z]       the library (libredline.so: dev link)
#   LIBDIR/libredline.a                  with RL_INSTALL_STATIC
#   include/redline/*.h                  the public headers
#   LIBDIR/pkgconfig/redline.pc          pkg-config
#   LIBDIR/cmake/redline/                find_package(redline) -> redline::redline
#   LIBDIR/redline/                      private: the capture interposer
#                                        (libredline_capture.so), the HIP
#                                        runtime over the simulator
#                                        (libamdhip64.so.6 and .so.5) and
#                                        the ROCr and libdrm_amdgpu
#                                        stand-ins (never on the default
#                                        library path)
#   LIBDIR/redline/kernels/*.co          the AMDGPU code objects of the
#                                        sample workloads; the installed
#                                        CLI finds them relative to itself
#
# LIBDIR is GNUInstallDirs' (lib/x86_64-linux-gnu on Debian with a /usr
# prefix). Included last from the top-level CMakeLists.txt.
include(CMakePackageConfigHelpers)

set(RL_INSTALL_PRIVATE_DIR ${CMAKE_INSTALL_LIBDIR}/redline)
set(RL_INSTALL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/redline)

set(RL_INSTALL_LIBRARIES redline_shared)
if(TARGET redline_static)
  list(APPEND RL_INSTALL_LIBRARIES redline_static)
endif()
install(TARGETS ${RL_INSTALL_LIBRARIES} EXPORT redlineTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/redline/include/redline
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h")
install(TARGETS redline RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The manual pages and bash completion generated from `redline help`
# (tools/CMakeLists.txt).
install(DIRECTORY ${CMAKE_BINARY_DIR}/man/
  DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 FILES_MATCHING PATTERN "*.1")
install(FILES ${CMAKE_BINARY_DIR}/completion/redline
  DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)

# The runtime stand-ins are defined with the tests (tests/*.cmake); a build
# without tests defines them here, so every build installs the same files.
foreach(runtime hsa drm)
  if(NOT TARGET rl_standin_${runtime})
    include(${PROJECT_SOURCE_DIR}/tests/standins/${runtime}/standin_${runtime}.cmake)
  endif()
endforeach()

# Private libraries: the versioned file and its SONAME link, no dev link.
install(TARGETS redline_capture
  LIBRARY DESTINATION ${RL_INSTALL_PRIVATE_DIR} NAMELINK_SKIP)
foreach(standin rl_hip_sim rl_standin_hsa rl_standin_drm)
  if(TARGET ${standin})
    install(TARGETS ${standin}
      LIBRARY DESTINATION ${RL_INSTALL_PRIVATE_DIR} NAMELINK_SKIP)
  endif()
endforeach()
# The HIP runtime over the simulator answers to both sonames.
install(FILES ${RL_HIP_SIM_LIBRARY_DIR}/libamdhip64.so.5
  DESTINATION ${RL_INSTALL_PRIVATE_DIR})
install(DIRECTORY ${RL_KERNELS_DIR}/
  DESTINATION ${RL_INSTALL_PRIVATE_DIR}/kernels
  FILES_MATCHING PATTERN "*.co"
  PATTERN "CMakeFiles" EXCLUDE)

# pkg-config: the shared library; `pkg-config --static` adds what
# libredline.a needs.
file(RELATIVE_PATH RL_PC_PREFIX_FROM_PCDIR
  /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" RL_PC_PREFIX_FROM_PCDIR "${RL_PC_PREFIX_FROM_PCDIR}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/redline.pc.in
  ${CMAKE_BINARY_DIR}/redline.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/redline.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# CMake package: redline::redline (shared) and redline::redline_static.
install(EXPORT redlineTargets NAMESPACE redline::
  DESTINATION ${RL_INSTALL_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/redlineConfig.cmake.in
  ${CMAKE_BINARY_DIR}/redlineConfig.cmake
  INSTALL_DESTINATION ${RL_INSTALL_CMAKE_DIR}
  PATH_VARS RL_INSTALL_PRIVATE_DIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/redlineConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/redlineConfig.cmake
  ${CMAKE_BINARY_DIR}/redlineConfigVersion.cmake
  DESTINATION ${RL_INSTALL_CMAKE_DIR})
