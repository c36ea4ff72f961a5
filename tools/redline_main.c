// The redline CLI: git-style subcommands over the redline libraries.
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tools/cli.h"
#include "tools/cli_help.h"

const rl_cli_command_t rl_cli_commands[] = {
    {"kernels", rl_cmd_kernels, "kernels FILE [--json] [--isa]",
     "List the kernels of an AMDGPU code object: target, code-object version,\n"
     "kernarg layout from the metadata note and the decoded kernel descriptor.\n"
     "FILE may be an executable, shared library or offload bundle: each\n"
     "embedded code object is listed with its target.\n"
     "  --json   machine output: {target, kernels: [{name, kernarg_size, ...}]}\n"
     "  --isa    also list every instruction the ISA executor does not model\n"},
    {"capture", rl_cmd_capture,
     "capture --workload NAME [--processor GFX] [--param NAME=VALUE]... -o FILE",
     "Record a registered workload through the capture funnel and write a\n"
     "self-contained capture file (.rlc).\n"
     "  --workload NAME     a registered workload (--list shows them)\n"
     "  --processor GFX     gfx1100 (default), gfx1151 or gfx1201\n"
     "  --param NAME=VALUE  parameter value at capture (e.g. pos=7)\n"
     "  --config NAME=VALUE workload configuration (e.g. layers=48)\n"
     "  --executor ref|isa  sim: reference kernels (default) or the gfx11/12 ISA\n"
     "  --layers N          shorthand for --config layers=N\n"
     "  --device sim|rocr|none  sim (default): launches execute on the\n"
     "                      simulated GPU; rocr: on the GPU through ROCr;\n"
     "                      none: record without executing\n"
     "  --no-contents       do not store buffer initial contents\n"
     "  -o FILE             output path (written atomically; not the input)\n"
     "  --list              list workloads and exit\n"},
    {"inspect", rl_cmd_inspect,
     "inspect CAPTURE [--launches] [--json] [--dot] [--max-decompressed B]",
     "Describe a capture: target, identity, kernels, buffers by role and size,\n"
     "launches, parameters and bindings, state regions and the waits the\n"
     "hazard plan needs.\n"
     "  --launches  a row per launch with its pointer effects and bindings\n"
     "  --json      machine output\n"
     "  --dot       the launch dependency graph in Graphviz form\n"
     "  --max-decompressed B  budget of decompressed buffer contents\n"
     "              (default 4G; suffix K, M or G); over it: exit 3\n"},
    {"infer", rl_cmd_infer,
     "infer STEP0 STEP1 ... [--positions P0,P1,...] [--position-limit N] "
     "[--allow-holdout-miss] -o FILE",
     "Infer bindings from K single-step captures of one program: every kernarg\n"
     "word, grid axis and pointer offset that differs between the steps gets\n"
     "the simplest expression of pos (affine, ceil/floor division) or a free\n"
     "per-step parameter; every step must be reproduced exactly, and with 4 or\n"
     "more steps the last one is predicted from the others (printed). Writes\n"
     "step 0 with the parameters and bindings (docs/binding-inference.md).\n"
     "  --positions P,...     each step's position (default 0, 1, ...)\n"
     "  --position-limit N    admit pos below N at most (the context length)\n"
     "  --allow-holdout-miss  keep the result when the held-out step is not\n"
     "                        predicted (default: exit 4)\n"
     "  -o FILE               output path (not one of the inputs)\n"
     "Unequal structure or unexplained variation: exit 4.\n"},
    {"replay", rl_cmd_replay,
     "replay FILE [--route aql|pm4] [--device sim] [--param NAME=VALUE]... "
     "[--repeat N] [--hazards adversarial] [--seed N] [--executor ref|isa] "
     "[--checked] [--json] [--trace OUT]",
     "Replay a capture on a fixed queue through the replay API: contract,\n"
     "prepare, then N runs; prints the route proof and the XXH3-128 of every\n"
     "state region after the last run. Pointers are rebased onto fresh\n"
     "allocations filled from the capture's initial contents.\n"
     "  --route aql|pm4        the route: one packet per launch, or one PM4\n"
     "                         IB in one vendor packet (default aql)\n"
     "  --no-retain            pm4: register-state retention off\n"
     "  --device-patch         pm4: the CP copies changed kernarg values from\n"
     "                         one slot per expression (docs/pm4-relay.md)\n"
     "  --device sim|rocr      the device kind (rocr: ROCr, REDLINE_HSA_LIBRARY)\n"
     "  --processor GFX        override the device ISA (default: the capture's)\n"
     "  --param NAME=VALUE     parameter value for the runs (default: capture)\n"
     "  --repeat N             number of runs (default 1)\n"
     "  --hazards MODE         sim: sequential (default) or adversarial\n"
     "  --seed N               sim: seed of the adversarial interleaving\n"
     "  --cache-model MODE     sim: off (default), report or strict caches\n"
     "  --executor ref|isa     sim: C reference kernels (default) or the gfx11\n"
     "                         ISA interpreter running the code object\n"
     "  --checked              no-access guards after every buffer (a kernel\n"
     "                         read or write past a buffer poisons, naming it)\n"
     "                         and poison-filled scratch\n"
     "  --timeout-ms N         bound of each run's wait (default 10000)\n"
     "  --max-decompressed B   budgets for untrusted captures (suffix K, M, G):\n"
     "  --max-device-memory B  decompressed contents (default 4G, else exit 3),\n"
     "  --max-work-items N     device memory (8G), work-items per dispatch\n"
     "  --max-dispatches N     (16M or the capture's largest launch) and\n"
     "                         dispatches per step (65536 or the capture's\n"
     "                         launches), else exit 4\n"
     "  --trace OUT            a Chrome/Perfetto trace of the runs\n"
     "  --json                 machine output: {proof, counters, status, regions}\n"
     "Environment: REDLINE_ROUTE=off|aql|pm4 restricts the routes.\n"},
    {"lower", rl_cmd_lower,
     "lower FILE [--route aql|pm4] [--processor GFX] [--retain|--no-retain] "
     "[--device-patch] [--json] [--stats]",
     "Prepare a capture on the simulated device without running it and print\n"
     "the retained stream: one line per AQL packet with every field named\n"
     "(route pm4: the vendor packet and the IB disassembled with register\n"
     "names), then the patch table (every dynamic scalar, grid size and\n"
     "rebased pointer slot with its dword and address).\n"
     "  --route aql|pm4        the route (default aql)\n"
     "  --processor GFX        override the device ISA (default: the capture's)\n"
     "  --retain, --no-retain  pm4 register-state retention (default on)\n"
     "  --device-patch         pm4: relay copies (COPY_DATA) in the IB\n"
     "  --stats                only the statistics: dwords, dwords per\n"
     "                         dispatch, waits, acquires, patch sites\n"
     "  --json                 machine output: {stats, packet, ib, patches}\n"},
    {"disasm", rl_cmd_disasm,
     "disasm (--pm4 RAWFILE [--processor GFX] | --aql RAWFILE) [--json]",
     "Decode a raw packet file with the decoders the simulated command\n"
     "processor uses and print one line per packet.\n"
     "  --pm4 RAWFILE    little-endian PM4 dwords (type-3 packets)\n"
     "  --processor GFX  register tables: gfx1100 (default), gfx1151, gfx1201\n"
     "  --aql RAWFILE    64-byte AQL packets\n"
     "  --json           machine output: a list of packets\n"
     "Malformed input stops with exit 3 naming the dword offset.\n"},
    {"shadow", rl_cmd_shadow,
     "shadow FILE [--arms eager,recorded,aql,pm4,pm4-relay[,hip,hipgraph,drm]] "
     "[--windows START:COUNT[:STRIDE]] [--json OUT] [--trace OUT] "
     "[--flip-byte REGION:OFFSET] [--hazards adversarial] [--seed N] "
     "[--executor ref|isa] [--processor GFX] [--bind BUFFER=BYTES]... [--verbose]",
     "Run the windows of a capture through several arms from identical state\n"
     "(each arm on its own simulated device, buffers from the capture's initial\n"
     "contents) and compare every state region byte for byte after each window.\n"
     "  --arms LIST            eager (reference: one launch at a time), recorded\n"
     "                         (re-issued through the funnel's typed path), aql,\n"
     "                         pm4 (retained routes); default all four;\n"
     "                         hip (each launch through HIP), hipgraph (the\n"
     "                         window as one HIP graph): through a libamdhip64\n"
     "                         ($REDLINE_HIP_LIBRARY, default redline's HIP\n"
     "                         runtime over the simulator); drm (the render\n"
     "                         node)\n"
     "  --windows S:C[:T]      C steps of the window parameter from S, stride T\n"
     "                         (default: the capture's window)\n"
     "  --verbose, -v          a line per arm, window and region (the default\n"
     "                         is a line per route family of arms that\n"
     "                         passed, the full line of every other arm, each\n"
     "                         distinct hazard finding once with its count,\n"
     "                         the first divergence with both values, and\n"
     "                         the verdict in at most 200 characters)\n"
     "  --json OUT             the report as JSON, written atomically\n"
     "                         (a link is followed; OUT must not be FILE)\n"
     "  --trace OUT            a Chrome/Perfetto trace of every arm's steps\n"
     "                         (host spans, simulated dispatches, waits)\n"
     "  --flip-byte R:OFF      negative control: corrupt byte OFF of region R in\n"
     "                         the pm4 arm (else the last retained arm) after\n"
     "                         window 0; the run must FAIL naming R and OFF\n"
     "  --hazards MODE         sim: sequential (default) or adversarial\n"
     "  --seed N               sim: seed of the adversarial interleaving\n"
     "  --adversarial-seeds N  sequential runs: also run every retained arm\n"
     "                         under N seeded interleavings (seeds SEED+1..;\n"
     "                         arms aql~adv1...; default 2, 0 to 4)\n"
     "  --cache-model MODE     sim: strict (default), report or off caches\n"
     "  --sim-threads N        sim: host threads per dispatch (1..64; default\n"
     "                         REDLINE_SIM_THREADS, else the CPUs)\n"
     "  --arm-jobs N           host threads the arms step on (1..16; default\n"
     "                         REDLINE_SHADOW_ARM_JOBS, else the CPUs over\n"
     "                         the sim threads); same report and verdict\n"
     "  --executor ref|isa     sim: reference kernels (default when every\n"
     "                         kernel has one) or gfx11/12 ISA (else)\n"
     "  --no-second-executor   no eager arm on the other executor (default:\n"
     "                         eager@isa, or eager@ref under --executor isa,\n"
     "                         when every kernel has a C reference)\n"
     "  --oracle sample|full|off  the oracle executor checks the isa executor\n"
     "                         on two work-groups per dispatch (sample, the\n"
     "                         default), on all (full), or not (off)\n"
     "  --processor GFX        device ISA (default: the capture's)\n"
     "  --bind BUFFER=BYTES    retained arms bind a BYTES-sized buffer of their\n"
     "                         own for BUFFER (smaller than captured: exit 4)\n"
     "  --timeout-ms N         bound of every wait of every arm (default 10000)\n"
     "  --device sim|rocr|drm  device of the eager, recorded and retained arms\n"
     "                         (default sim); rocr/drm: the GPU, plus the arm\n"
     "                         sim (eager on the simulator) as the reference;\n"
     "                         drm runs the arm drm only; default arms:\n"
     "                         every arm the device runs, hip, hipgraph\n"
     "  --no-sim-reference     with a real device, no sim arm\n"
     "  --max-decompressed B, --max-device-memory B, --max-work-items N,\n"
     "  --max-dispatches N     budgets as for replay; device memory counts\n"
     "                         every arm\n"
     "  --max-windows N        windows one walk runs (default 4096), regions\n"
     "  --max-regions N        (16384) and bindings per launch (4096) of the\n"
     "  --max-bindings N       capture, else exit 3\n"
     "Exit 1 on any divergence or failed route proof.\n"},
    {"bench", rl_cmd_bench,
     "bench FILE [--arms eager,aql,pm4] [--windows START:COUNT[:STRIDE]] "
     "[--rounds N] [--json OUT] [--trace OUT]",
     "Time the arms in interleaved rounds (A B C A B C ...): per arm the median\n"
     "and p95 (max under 200 samples) wall time per step, host submission\n"
     "time per step (engine counters; split into the engine's work and the\n"
     "doorbell, the hand-off to the device), simulated-device time per step\n"
     "(dispatch-log timestamps), the route proof and the PM4 statistics.\n"
     "  --arms LIST       default eager,aql,pm4\n"
     "  --windows S:C[:T] steps of one round (default: the capture's window)\n"
     "  --rounds N        rounds (default 5)\n"
     "  --processor GFX, --hazards MODE, --seed N, --executor ref|isa|noop,\n"
     "  --cache-model MODE (default strict), --device sim|rocr|drm,\n"
     "  --sim-threads N\n"
     "                    as for shadow (no sim arm is added; noop, bench\n"
     "                    only, runs no kernel code: times host and CP)\n"
     "  --json OUT        the table as JSON, written atomically\n"
     "                    (a link is followed; OUT must not be FILE)\n"
     "  --trace OUT       a Chrome/Perfetto trace of every step\n"
     "  --wait block|spin the retained arms' wait (default block)\n"
     "  --pin             this thread on the first CPU, the simulated command\n"
     "                    processors on the last\n"},
    {"demo", rl_cmd_demo,
     "demo [--layers N] [--processor GFX] [--hazards adversarial] [--seed N] "
     "[--executor ref|isa] [--out DIR] [--trace OUT] [--verbose]",
     "The whole pipeline on the simulator: capture the decode workload while it\n"
     "runs (an eager run), write the capture, print its inspect summary, shadow\n"
     "all four arms over 12 windows across a chunk boundary of the attention\n"
     "split, run a short bench, and end with `redline demo: PASS` or\n"
     "`redline demo: FAIL (<reason>)`.\n"
     "  --layers N        decoder layers (default 4)\n"
     "  --verbose, -v     every kernel, buffer and binding, and the shadow's\n"
     "                    line per arm, window and region (the default: at\n"
     "                    most 40 lines, counts and one line per route)\n"
     "  --processor GFX   gfx1100 (default), gfx1151 or gfx1201\n"
     "  --hazards MODE    sequential (default) or adversarial\n"
     "  --adversarial-seeds N  retained arms also under N seeded\n"
     "                    interleavings (default 2; as for shadow)\n"
     "  --cache-model MODE strict (default), report or off\n"
     "  --executor ref|isa  reference kernels (default) or the gfx11/gfx12\n"
     "                    ISA interpreter\n"
     "  --out DIR         keep the capture as DIR/decode.rlc (default: a\n"
     "                    temporary file, removed at exit)\n"
     "  --trace OUT       a Chrome/Perfetto trace of the shadow and the bench\n"},
    {"run", rl_cmd_run,
     "run [--processor GFX] [--executor isa|ref] [--capture FILE "
     "[--window SPEC | --steps K [--skip-steps M] [--step-start KERNEL] "
     "[--verify-steps N]] [--capture-max-launches N]] "
     "[--trace OUT] [--timeout-ms N] "
     "[--device-memory B] [--hazards MODE] [--seed N] [--cache-model MODE] "
     "[--sim-threads N] "
     "[--max-work-items N] [--max-dispatches N] -- PROGRAM [ARGS...]",
     "Run an unmodified HIP program on the simulated GPU: its libamdhip64\n"
     "(soname .so.5 or .so.6) is redline's HIP runtime over the simulator,\n"
     "which runs every kernel's gfx11 machine code with the ISA interpreter.\n"
     "The exit status is the program's (128 + N for signal N, 127 when it\n"
     "cannot start, 7 when a launch outlived --timeout-ms and was stopped);\n"
     "at exit one summary line on stderr: kernels, launches, simulated\n"
     "device time, the kernel stopped if any, and the capture's state.\n"
     "  --processor GFX   gfx1100 (default), gfx1151 or gfx1201\n"
     "  --executor isa|ref  isa (default) or ref (the C references of the\n"
     "                    sample kernels only)\n"
     "  --capture FILE    record the run through the LD_PRELOAD interposer\n"
     "                    into FILE (replaced); the capture declares its\n"
     "                    window, so `redline shadow FILE` needs no --windows.\n"
     "                    Incomplete (and refused by replay) when a launch\n"
     "                    failed, none was recorded, or work bypassed it\n"
     "  --window SPEC     launches:FIRST:COUNT (kernel launches only),\n"
     "                    items:FIRST:COUNT (launches, copies and fills into\n"
     "                    recorded buffers) or marker:KERNEL:N (default:\n"
     "                    the whole run)\n"
     "  --steps K         record K (2..4096) steps of equal structure and\n"
     "                    write the first with parameter pos = its ordinal;\n"
     "                    a step is the period of the launch sequence (the\n"
     "                    program runs twice: once to find it) or starts at\n"
     "                    each launch of --step-start KERNEL; steps that\n"
     "                    differ are refused naming the first difference\n"
     "                    (exit 4, nothing written)\n"
     "  --capture-max-launches N  launches, copies and fills the capture\n"
     "                    records (K/M/G suffix; default 16M): past it the\n"
     "                    capture is incomplete naming the budget\n"
     "  --skip-steps M    skip M steps first (default 0)\n"
     "  --step-start KERNEL  a step starts at each launch of KERNEL\n"
     "  --verify-steps N  also record the program's state (XXH3-128 of every\n"
     "                    region step 0 writes) after each of the K steps and\n"
     "                    N more (0..4096), shown by `redline inspect`\n"
     "  --trace OUT       every launch's simulated device span as a\n"
     "                    Chrome/Perfetto trace, written at exit\n"
     "  --timeout-ms N    bound of every launch's wait (default 10000): a\n"
     "                    launch still running then fails in the program\n"
     "                    and its kernel is stopped\n"
     "  --device-memory B the simulated device's memory (K/M/G suffix;\n"
     "                    default 16G): allocations beyond it fail\n"
     "  --hazards MODE    sequential (default) or adversarial work-groups\n"
     "  --seed N          seed of the adversarial interleaving and caches\n"
     "  --cache-model MODE off (default), report or strict caches\n"
     "  --sim-threads N   host threads per simulated dispatch (1..64;\n"
     "                    default REDLINE_SIM_THREADS, else the CPUs)\n"
     "  --max-work-items N  work-items per dispatch (default: the\n"
     "                    limit of AQL packets) and\n"
     "  --max-dispatches N  dispatches per step (65536): a launch over\n"
     "                    either fails in the program\n"
     "Environment passed on: REDLINE_HIP_PROCESSOR, REDLINE_HIP_EXECUTOR,\n"
     "REDLINE_HIP_REPORT, REDLINE_HIP_TRACE, REDLINE_HIP_TIMEOUT_MS,\n"
     "REDLINE_HIP_MEMORY, REDLINE_HIP_HAZARDS, REDLINE_HIP_SEED,\n"
     "REDLINE_HIP_CACHE_MODEL, REDLINE_HIP_MAX_WORK_ITEMS,\n"
     "REDLINE_HIP_MAX_DISPATCHES, REDLINE_CAPTURE_OUT, REDLINE_CAPTURE_WINDOW,\n"
     "REDLINE_CAPTURE_MAX_LAUNCHES,\n"
     "REDLINE_CAPTURE_STEPS, REDLINE_CAPTURE_SKIP_STEPS,\n"
     "REDLINE_CAPTURE_STEP_START, REDLINE_CAPTURE_STEP_PERIOD,\n"
     "REDLINE_CAPTURE_VERIFY_STEPS, REDLINE_CAPTURE_SURVEY.\n"},
    {"doctor", rl_cmd_doctor, "doctor [--json]",
     "Answer \"can redline drive real hardware here?\": the runtime libraries\n"
     "(every path tried, what loaded, versions, errors), /dev/kfd and the\n"
     "render nodes, the HSA agents with their exact ISA names, and each\n"
     "device with the routes it admits or why it is unavailable. The\n"
     "simulator is always available (it is not hardware).\n"
     "  --json   machine output: {hardware, libraries, kfd, render_nodes,\n"
     "           agents, devices}\n"
     "Exit 0 when a hardware device is available, 8 when none is.\n"
     "Environment: REDLINE_HSA_LIBRARY, REDLINE_HIP_LIBRARY and\n"
     "REDLINE_DRM_LIBRARY override the runtime libraries.\n"},
    {"help", rl_cmd_help, "help [COMMAND]", "Show help for redline or COMMAND.\n"},
};
const size_t rl_cli_command_count =
    sizeof(rl_cli_commands) / sizeof(rl_cli_commands[0]);

const char rl_cli_exit_codes[] =
    "Exit codes:\n"
    "  0  success\n"
    "  1  divergence or mismatch found\n"
    "  2  usage error (also a bad number or an unknown --processor)\n"
    "  3  invalid or unsupported input file (also not a regular file)\n"
    "  4  contract failure (also a launch that does not fit AQL)\n"
    "  5  prepare failure\n"
    "  6  replay failure (poisoned)\n"
    "  7  quarantined\n"
    "  8  device or runtime unavailable (also out of host memory)\n"
    "  70 internal error\n"
    "Numbers are decimal (010 is ten) or 0x-hexadecimal, without spaces or +.\n";

int rl_cmd_help(int argc, char** argv) {
  // Build-time generators (tools/CMakeLists.txt), not listed in the help:
  // the manual pages and the bash completion come from the texts above.
  if (argc == 3 && rl_cli_is(argv[1], "--man-dir")) {
    return rl_cli_write_man_pages(argv[2], RL_VERSION) == 0 ? RL_EXIT_OK
                                                           : RL_EXIT_UNAVAILABLE;
  }
  if ((argc == 2 || argc == 3) && rl_cli_is(argv[1], "--bash-completion")) {
    FILE* out = argc == 3 ? fopen(argv[2], "w") : stdout;
    if (!out) {
      fprintf(stderr, "redline: help: %s: %s\n", argv[2], strerror(errno));
      return RL_EXIT_UNAVAILABLE;
    }
    rl_cli_write_bash_completion(out);
    bool failed = ferror(out) != 0;
    failed = (out == stdout ? fflush(out) : fclose(out)) != 0 || failed;
    return failed ? RL_EXIT_UNAVAILABLE : RL_EXIT_OK;
  }
  if (argc >= 2) {
    for (size_t i = 0; i < rl_cli_command_count; ++i) {
      if (strcmp(argv[1], rl_cli_commands[i].name) == 0) {
        printf("usage: redline %s\n\n%s\n%s", rl_cli_commands[i].synopsis,
               rl_cli_commands[i].help, rl_cli_exit_codes);
        return RL_EXIT_OK;
      }
    }
    return rl_cli_usage("help: unknown command '%s'", argv[1]);
  }
  printf("redline — PM4/AQL command-stream replay for AMD GPUs\n\n"
         "usage: redline COMMAND [ARGS]\n\nCommands:\n");
  for (size_t i = 0; i < rl_cli_command_count; ++i) {
    printf("  %s\n", rl_cli_commands[i].synopsis);
  }
  printf("\nErrors go to stderr. Environment: REDLINE_KERNELS_DIR overrides\n"
         "where built code objects are found.\n\n%s", rl_cli_exit_codes);
  return RL_EXIT_OK;
}

// A closed standard descriptor would be taken by the next file redline
// opens (an output temporary as fd 1 would receive the report). Each closed
// one is held by /dev/null opened so that writes fail as on a closed
// descriptor (EBADF: fd 1 and 2 read-only, fd 0 write-only), and the write
// error is then reported like any other.
static void rl_main_hold_standard_fds(void) {
  static const int modes[3] = {O_WRONLY, O_RDONLY, O_RDONLY};
  for (int fd = 0; fd < 3; ++fd) {
    if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF) continue;
    int held = open("/dev/null", modes[fd]);
    if (held >= 0 && held != fd) close(held);  // cannot happen: lowest fd
  }
}

// Flushes standard output and checks both standard streams: a report that
// did not reach its reader (`> /dev/full`, a closed stdout, EIO) fails the
// command. A command that succeeded exits RL_EXIT_INVALID_INPUT (3: an output
// that cannot be written, docs/cli.md); one that failed keeps its code.
static int rl_main_finish(int exit_code) {
  errno = 0;
  int out_failed = fflush(stdout) != 0 || ferror(stdout);
  int out_errno = errno;
  int err_failed = fflush(stderr) != 0 || ferror(stderr);
  if (!out_failed && !err_failed) return exit_code;
  if (out_failed) {
    fprintf(stderr, "redline: cannot write standard output: %s\n",
            out_errno ? strerror(out_errno) : "write error");
  }
  return exit_code == RL_EXIT_OK ? RL_EXIT_INVALID_INPUT : exit_code;
}

static int rl_main_dispatch(int argc, char** argv) {
  if (argc < 2) {
    rl_cmd_help(1, argv);
    return RL_EXIT_USAGE;
  }
  if (rl_cli_is(argv[1], "--help") || rl_cli_is(argv[1], "-h")) {
    return rl_cmd_help(1, argv);
  }
  if (rl_cli_is(argv[1], "--version")) {
    printf("redline %s\n", RL_VERSION);
    return RL_EXIT_OK;
  }
  for (size_t i = 0; i < rl_cli_command_count; ++i) {
    if (strcmp(argv[1], rl_cli_commands[i].name) == 0) {
      for (int a = 2; a < argc; ++a) {
        if (rl_cli_is(argv[a], "--help") || rl_cli_is(argv[a], "-h")) {
          char* help_argv[] = {"help", argv[1]};
          return rl_cmd_help(2, help_argv);
        }
      }
      return rl_cli_commands[i].run(argc - 1, argv + 1);
    }
  }
  return rl_cli_usage("unknown command '%s'", argv[1]);
}

int main(int argc, char** argv) {
  rl_main_hold_standard_fds();
  return rl_main_finish(rl_main_dispatch(argc, argv));
}
