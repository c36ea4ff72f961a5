// placeholder (being written)
#include "tools/cli.h"
int rl_cmd_demo(int argc, char** argv) { (void)argc; (void)argv; return rl_cli_usage("demo: not yet"); }
