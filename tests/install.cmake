# tests/install.cmake — the library as products see it: exactly the public
# API exported (check_exports.sh), an install into a staging prefix used
# out of tree through pkg-config and find_package(redline)
# (install_test.sh), and the Python bindings' tests (python/tests) over the
# build tree's libredline.so.
add_test(NAME libredline_exports
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/install/check_exports.sh
    $<TARGET_FILE:redline_shared> ${PROJECT_SOURCE_DIR}/redline/include
    ${PROJECT_SOURCE_DIR}/redline/libredline.map)
set_tests_properties(libredline_exports PROPERTIES LABELS unit TIMEOUT 60)

# A sanitized libredline.so cannot be loaded by programs that are not
# sanitized themselves (an out-of-tree example, Debian's python3): the
# sanitizer runtime must come first. Those two run in the plain build only.
if(RL_SANITIZE)
  return()
endif()

add_test(NAME install_example
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/install/install_test.sh
    ${CMAKE_BINARY_DIR} ${PROJECT_SOURCE_DIR})
set_tests_properties(install_example PROPERTIES
  LABELS integration TIMEOUT 600 RUN_SERIAL TRUE)

# Debian's python3 (python3-pytest, tools/dev.sh) before any other on PATH.
find_program(RL_PYTHON3 python3 PATHS /usr/bin NO_DEFAULT_PATH)
find_program(RL_PYTHON3 python3)
if(RL_PYTHON3)
  add_test(NAME python_bindings
    COMMAND ${RL_PYTHON3} -m pytest -q -p no:cacheprovider
      ${PROJECT_SOURCE_DIR}/python/tests)
  set_tests_properties(python_bindings PROPERTIES
    LABELS integration TIMEOUT 600
    ENVIRONMENT "PYTHONPATH=${PROJECT_SOURCE_DIR}/python;REDLINE_LIBRARY=$<TARGET_FILE:redline_shared>;LD_LIBRARY_PATH=$<TARGET_FILE_DIR:redline_shared>;REDLINE_BIN=$<TARGET_FILE:redline>;REDLINE_KERNELS_DIR=${RL_KERNELS_DIR}")
  # The stop test's program (tests/hip_corpus_controls.cmake), when built:
  # python/tests/test_stop.py skips without it.
  if(RL_STUCK_PROGRAM)
    set_property(TEST python_bindings APPEND PROPERTY ENVIRONMENT
      "REDLINE_STUCK_PROGRAM=${RL_STUCK_PROGRAM}")
  endif()
endif()

# The README's `pip install --no-build-isolation ./python` with no package
# index reachable (python3-venv, python3-setuptools, python3-wheel).
if(EXISTS /usr/bin/python3)
  add_test(NAME python_install
    COMMAND ${CMAKE_CURRENT_LIST_DIR}/install/python_install_test.sh
      /usr/bin/python3 ${PROJECT_SOURCE_DIR})
  set_tests_properties(python_install PROPERTIES
    LABELS integration TIMEOUT 300
    ENVIRONMENT "REDLINE_LIBRARY=$<TARGET_FILE:redline_shared>")
endif()
