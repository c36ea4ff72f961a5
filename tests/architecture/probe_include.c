// Compiled by tests/architecture/architecture.cmake with exactly the include
// directories a consumer of a target sees: RL_PROBE_HEADER must be reachable
// when it is exported and unreachable when it is private to its module.
#include RL_PROBE_HEADER

int rl_probe_include(void);
int rl_probe_include(void) { return 0; }
