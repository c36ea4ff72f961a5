// redline/doctor.h — "can redline drive real hardware here?": the facts
// behind `redline doctor`, collected without side effects beyond loading
// the runtime libraries and initialising (then shutting down) ROCr.
//
// What is collected:
//   - the runtime libraries (ROCr libhsa-runtime64, HIP libamdhip64,
//     libdrm_amdgpu + libdrm): every path tried and its dlerror(), the path
//     that loaded, the version (hsa_system_get_info VERSION_MAJOR/MINOR,
//     hipRuntimeGetVersion/hipDriverGetVersion, the amdgpu kernel driver
//     version of a render node) and the error that stopped them
//     (e.g. "hsa_init: HSA_STATUS_ERROR_OUT_OF_RESOURCES ...");
//   - /dev/kfd and every /dev/dri/renderD* node (present, accessible, and
//     for amdgpu nodes the GPU family);
//   - the HSA agents with their exact ISA names;
//   - one entry per device redline could open: the simulator (always
//     available, never hardware), each ROCr GPU agent (available when its
//     ISA is one redline targets; otherwise why not, e.g. "ISA gfx90a not
//     supported: redline targets gfx1100, gfx1151, gfx1201"), and the drm
//     device as it would open (route drm; or why not: no library, no
//     render node, a family redline does not target), with the routes
//     each admits.
// Library selection follows the backends: REDLINE_HSA_LIBRARY,
// REDLINE_HIP_LIBRARY and REDLINE_DRM_LIBRARY override the defaults (HIP is
// probed first so that it binds to the system ROCr, never to an overriding
// stand-in).
//
// Thread-safety: call from one thread; it initialises and shuts down ROCr.
#ifndef REDLINE_DOCTOR_H_
#define REDLINE_DOCTOR_H_

#include <stdbool.h>
#include <stdint.h>

#include "redline/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rl_doctor_library_s {
  char name[32];        // "libhsa-runtime64", "libamdhip64", "libdrm_amdgpu"
  bool loaded;
  char path[512];       // the path that loaded
  char tried[2048];     // every path tried with its result
  char version[128];    // "" when unknown
  char error[1024];     // why it is not loaded or not usable; "" if fine
} rl_doctor_library_t;

typedef struct rl_doctor_agent_s {
  bool gpu;
  char name[64];
  char vendor[64];
  char isa[96];         // exact ISA name ("" for CPU agents)
  bool supported;
  char reason[192];
} rl_doctor_agent_t;

typedef struct rl_doctor_node_s {
  char path[64];        // "/dev/dri/renderD128"
  bool accessible;      // open O_RDWR succeeded
  char driver[64];      // drmGetVersion name, "amdgpu"
  char detail[256];     // driver version, GPU family, or the error
} rl_doctor_node_t;

// The bit of route |route| (rl_route_t of redline/replay.h) in
// rl_doctor_device_t.routes: route r is bit r - 1, so a reader names the
// set bits with rl_route_name.
#define RL_DOCTOR_ROUTE_BIT(route) (1u << ((unsigned)(route) - 1u))

typedef enum rl_doctor_route_e {
  RL_DOCTOR_ROUTE_AQL = 1u << 0,  // RL_DOCTOR_ROUTE_BIT(RL_ROUTE_AQL)
  RL_DOCTOR_ROUTE_PM4 = 1u << 1,  // RL_DOCTOR_ROUTE_BIT(RL_ROUTE_PM4)
  RL_DOCTOR_ROUTE_DRM = 1u << 2,  // RL_DOCTOR_ROUTE_BIT(RL_ROUTE_DRM)
} rl_doctor_route_t;

typedef struct rl_doctor_device_s {
  char kind[8];         // "sim", "rocr", "drm"
  char target[96];      // exact ISA, or the processors the sim runs
  bool hardware;        // a real device (not the simulator)
  bool available;       // rl_device_open would succeed
  uint32_t routes;      // rl_doctor_route_t bits admitted
  char reason[1024];    // why not available
} rl_doctor_device_t;

#define RL_DOCTOR_MAX_NODES 16
#define RL_DOCTOR_MAX_AGENTS 16
#define RL_DOCTOR_MAX_DEVICES 24

typedef struct rl_doctor_report_s {
  rl_doctor_library_t hsa;
  rl_doctor_library_t hip;
  rl_doctor_library_t drm;
  bool kfd_present;
  bool kfd_accessible;
  char kfd[128];        // "accessible" or the errno text
  uint32_t node_count;
  rl_doctor_node_t nodes[RL_DOCTOR_MAX_NODES];
  uint32_t agent_count;
  rl_doctor_agent_t agents[RL_DOCTOR_MAX_AGENTS];
  uint32_t device_count;
  rl_doctor_device_t devices[RL_DOCTOR_MAX_DEVICES];
} rl_doctor_report_t;

// Fills *|out_report| (cleared first; about 20 KiB: allocate it). Fails
// only on invalid arguments: everything found, or why not, is a fact.
rl_status_t rl_doctor_collect(rl_doctor_report_t* out_report);

// True when some hardware device is available: the answer to "can redline
// drive real hardware here". `redline doctor` exits 8 when false.
bool rl_doctor_has_hardware(const rl_doctor_report_t* report);

#ifdef __cplusplus
}
#endif

#endif  // REDLINE_DOCTOR_H_
