# cmake/Modules.cmake — per-target include directories.
#
# Sources name headers from the project root ("aql/aql_ring.h",
# "sim/sim.h"), but no target sees the project root. Each target gets
# two views in the build tree, made of symbolic links to the source headers
# (edits need no re-configure):
#   PRIVATE  <build>/rl_include/<target>/private/<folder>/*.h: every header
#            of the target's own folder (not its sub-folders);
#   PUBLIC   <build>/rl_include/<target>/public/<folder>/<header>: only the
#            headers the module exports, seen by every target that links it.
# So a module's other headers are unreachable from outside it: an include of
# one fails to compile. The public API headers (redline/include/redline/)
# are exported the same way, each by the module that implements it (API
# below): a target sees redline/replay.h only if it links the engine. Tests are white-box and see the project root
# (tests/CMakeLists.txt). tests/architecture/check_layers.py checks which
# folder may include which (the layering at the top of CMakeLists.txt).
#
# Every header a module owns and every header one exports are recorded in
# the global properties RL_MODULE_HEADERS and RL_EXPORTED_HEADERS: the
# private headers (owned, exported by no module) each get a compile probe
# (tests/architecture/architecture.cmake).
#
# rl_module_headers(<target> FOLDER <folder> [SUBFOLDERS <sub>...]
#                   [EXPORT <header>...] [INTERNAL <header>...]
#                   [API <header>...])
# SUBFOLDERS: sub-folders of <folder> whose headers the target owns too
# (capture/'s modules, one library); EXPORT names them as <sub>/<header>.
# INTERNAL: headers shown only to the targets that name this one in their
# USES (rl_module_library), not to every target linking it; the modules of
# one folder (sim/'s core, capture/'s modules) share their headers this way
# and the headers stay private to the folder:
#   INTERNAL <build>/rl_include/<target>/internal/<folder>/<header>.
# API: headers of the public API (redline/include/redline/<header>) the
# target implements, seen as "redline/<header>" by the target and every
# target that links it.
function(rl_module_headers target)
  cmake_parse_arguments(ARG "" "FOLDER" "SUBFOLDERS;EXPORT;INTERNAL;API"
                        ${ARGN})
  set(view ${CMAKE_BINARY_DIR}/rl_include/${target})
  set(globs ${PROJECT_SOURCE_DIR}/${ARG_FOLDER}/*.h)
  foreach(sub IN LISTS ARG_SUBFOLDERS)
    list(APPEND globs ${PROJECT_SOURCE_DIR}/${ARG_FOLDER}/${sub}/*.h)
  endforeach()
  file(GLOB own CONFIGURE_DEPENDS
    RELATIVE ${PROJECT_SOURCE_DIR}/${ARG_FOLDER} ${globs})
  file(REMOVE_RECURSE ${view})
  foreach(header IN LISTS own)
    rl_module_link(${ARG_FOLDER}/${header} ${view}/private)
    set_property(GLOBAL APPEND PROPERTY RL_MODULE_HEADERS
                 ${ARG_FOLDER}/${header})
  endforeach()
  foreach(header IN LISTS ARG_EXPORT)
    set_property(GLOBAL APPEND PROPERTY RL_EXPORTED_HEADERS
                 ${ARG_FOLDER}/${header})
  endforeach()
  foreach(header IN LISTS ARG_EXPORT)
    if(NOT EXISTS ${PROJECT_SOURCE_DIR}/${ARG_FOLDER}/${header})
      message(FATAL_ERROR "${target} exports ${ARG_FOLDER}/${header}, "
                          "which does not exist")
    endif()
    rl_module_link(${ARG_FOLDER}/${header} ${view}/public)
  endforeach()
  foreach(header IN LISTS ARG_INTERNAL)
    if(NOT EXISTS ${PROJECT_SOURCE_DIR}/${ARG_FOLDER}/${header})
      message(FATAL_ERROR "${target} shares ${ARG_FOLDER}/${header}, "
                          "which does not exist")
    endif()
    rl_module_link(${ARG_FOLDER}/${header} ${view}/internal)
  endforeach()
  foreach(header IN LISTS ARG_API)
    if(NOT EXISTS ${PROJECT_SOURCE_DIR}/redline/include/redline/${header})
      message(FATAL_ERROR "${target} exports the API header "
                          "redline/include/redline/${header}, which does not exist")
    endif()
    file(MAKE_DIRECTORY ${view}/public/redline)
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/redline/include/redline/${header}
         ${view}/public/redline/${header} SYMBOLIC)
  endforeach()
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")  # header-only: nothing private
    target_include_directories(${target} INTERFACE ${view}/public)
    return()
  endif()
  target_include_directories(${target} PRIVATE ${view}/private)
  if(ARG_EXPORT OR ARG_API)
    target_include_directories(${target} PUBLIC ${view}/public)
  endif()
endfunction()

# rl_module_library(<target> <STATIC|SHARED|INTERFACE> FOLDER <folder>
#                   [SOURCES <file>...] [GENERATED <file>...]
#                   [SUBFOLDERS ...] [EXPORT ...] [INTERNAL ...] [API ...]
#                   [USES <module target>...])
# A module's library declared once: add_library over <folder>/<file> (the
# sources named relative to the module's folder, wherever the list that
# calls it is included from), plus any GENERATED source given by full path,
# and its include views (rl_module_headers: SUBFOLDERS, EXPORT, INTERNAL
# and API as there). USES: the modules of the same folder below this one
# whose INTERNAL headers it includes; each is linked PUBLIC (so a static
# library's users link it after this one) and its internal view added to
# this target's PRIVATE include path only. List every module whose header
# is reached, also through another header (sim_wg.h includes sim_mem.h).
function(rl_module_library target type)
  cmake_parse_arguments(ARG "" "FOLDER"
                        "SOURCES;GENERATED;SUBFOLDERS;EXPORT;INTERNAL;API;USES"
                        ${ARGN})
  list(TRANSFORM ARG_SOURCES PREPEND ${PROJECT_SOURCE_DIR}/${ARG_FOLDER}/)
  add_library(${target} ${type} ${ARG_SOURCES} ${ARG_GENERATED})
  rl_module_headers(${target} FOLDER ${ARG_FOLDER}
                    SUBFOLDERS ${ARG_SUBFOLDERS} EXPORT ${ARG_EXPORT}
                    INTERNAL ${ARG_INTERNAL} API ${ARG_API})
  foreach(used IN LISTS ARG_USES)
    if(NOT TARGET ${used})
      message(FATAL_ERROR "${target} uses ${used}, which is not declared "
                          "yet (declare the modules lowest first)")
    endif()
    target_link_libraries(${target} PUBLIC ${used})
    target_include_directories(${target} PRIVATE
      ${CMAKE_BINARY_DIR}/rl_include/${used}/internal)
  endforeach()
endfunction()

# Links <view>/<path> to the source file <path>.
function(rl_module_link path view)
  get_filename_component(dir ${view}/${path} DIRECTORY)
  file(MAKE_DIRECTORY ${dir})
  file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${path} ${view}/${path} SYMBOLIC)
endfunction()
