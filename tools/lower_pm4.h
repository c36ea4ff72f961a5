// tools/lower_pm4.h — `redline lower --route pm4` output: the vendor AQL
// packet, the IB disassembled with register names (pm4/pm4_decode.h, the
// decoder the simulator and the census use), the patch table, and the
// density statistics, as text or JSON.
#ifndef REDLINE_TOOLS_LOWER_PM4_H_
#define REDLINE_TOOLS_LOWER_PM4_H_

#include <stdbool.h>

#include "redline/replay.h"

typedef struct rl_lower_pm4_output_s {
  bool json;
  bool stats_only;  // --stats: the statistics alone
  bool retain;
} rl_lower_pm4_output_t;

// Prints the prepared pm4 stream of |replay| (|proof| is its route proof).
rl_status_t rl_lower_pm4_print(const rl_replay_t* replay,
                               const rl_capture_t* capture,
                               const rl_route_proof_t* proof,
                               const rl_lower_pm4_output_t* output);

#endif  // REDLINE_TOOLS_LOWER_PM4_H_
