// `redline doctor [--json]`: answers "can redline drive real hardware
// here?" from the facts rl_doctor_collect() gathers (redline/doctor.h):
// the runtime libraries (every path tried, what loaded, versions, the
// error that stopped them), /dev/kfd and the render nodes, the HSA agents
// with their exact ISA names, and each device with the routes it admits or
// why it is unavailable. The simulator is always listed as available; it
// is not hardware. Exit 0 when some hardware device is available, 8 when
// none is.
#include <stdio.h>
#include <stdlib.h>

#include "redline/doctor.h"
#include "redline/replay.h"
#include "tools/cli.h"

// doctor.h: route r is bit r - 1.
_Static_assert(RL_DOCTOR_ROUTE_AQL == RL_DOCTOR_ROUTE_BIT(RL_ROUTE_AQL), "");
_Static_assert(RL_DOCTOR_ROUTE_PM4 == RL_DOCTOR_ROUTE_BIT(RL_ROUTE_PM4), "");
_Static_assert(RL_DOCTOR_ROUTE_DRM == RL_DOCTOR_ROUTE_BIT(RL_ROUTE_DRM), "");

// The name of the route of bit |bit| of a device's routes (doctor.h
// RL_DOCTOR_ROUTE_BIT), or NULL past the last route.
static const char* rl_doctor_route_of_bit(uint32_t bit) {
  rl_route_t route = (rl_route_t)(bit + 1u);
  const char* name = rl_route_name(route);
  rl_route_t parsed = RL_ROUTE_NONE;
  return rl_route_parse(name, &parsed) && parsed == route ? name : NULL;
}

// "aql pm4": the routes of |routes| by their names, or "none".
static void rl_doctor_routes_text(uint32_t routes, char* out, size_t size) {
  size_t used = 0;
  out[0] = '\0';
  for (uint32_t bit = 0; bit < 32 && used < size; ++bit) {
    const char* name = rl_doctor_route_of_bit(bit);
    if (!name) break;
    if (!(routes & (1u << bit))) continue;
    int n = snprintf(out + used, size - used, "%s%s", used ? " " : "", name);
    if (n < 0) break;
    used += (size_t)n;
  }
  if (!out[0]) snprintf(out, size, "none");
}

static void rl_doctor_print_library(const rl_doctor_library_t* library) {
  printf("  %-17s %s", library->name, library->loaded ? "loaded" : "not loaded");
  if (library->loaded) printf(" %s", library->path);
  if (library->version[0]) printf(" (%s)", library->version);
  printf("\n");
  if (library->error[0]) printf("    error: %s\n", library->error);
  printf("    tried: %s\n", library->tried[0] ? library->tried : "(nothing)");
}

static void rl_doctor_print_text(const rl_doctor_report_t* report) {
  printf("libraries:\n");
  rl_doctor_print_library(&report->hsa);
  rl_doctor_print_library(&report->hip);
  rl_doctor_print_library(&report->drm);
  printf("/dev/kfd: %s\n", report->kfd);
  printf("render nodes:%s\n", report->node_count ? "" : " none");
  for (uint32_t i = 0; i < report->node_count; ++i) {
    const rl_doctor_node_t* node = &report->nodes[i];
    printf("  %s %s%s%s\n", node->path,
           node->accessible ? "accessible" : "not accessible",
           node->detail[0] ? ": " : "", node->detail);
  }
  printf("agents:%s\n", report->agent_count ? "" : " none");
  for (uint32_t i = 0; i < report->agent_count; ++i) {
    const rl_doctor_agent_t* agent = &report->agents[i];
    printf("  %s %s (%s)%s%s%s\n", agent->gpu ? "gpu" : "cpu", agent->name,
           agent->vendor, agent->isa[0] ? " isa " : "", agent->isa,
           agent->gpu && !agent->supported ? " — not supported" : "");
  }
  printf("devices:\n");
  for (uint32_t i = 0; i < report->device_count; ++i) {
    const rl_doctor_device_t* device = &report->devices[i];
    printf("  %-5s %-28s %s", device->kind,
           device->target[0] ? device->target : "-",
           device->available ? "available" : "unavailable");
    if (device->available) {
      char routes[64];
      rl_doctor_routes_text(device->routes, routes, sizeof(routes));
      printf(", routes %s%s\n", routes, device->hardware ? "" : " (simulated)");
    } else {
      printf(": %s\n", device->reason);
    }
  }
  printf("hardware: %s\n", rl_doctor_has_hardware(report)
                               ? "yes" : "no usable hardware device (exit 8)");
}

static cJSON* rl_doctor_library_json(const rl_doctor_library_t* library) {
  cJSON* object = cJSON_CreateObject();
  cJSON_AddStringToObject(object, "name", library->name);
  cJSON_AddBoolToObject(object, "loaded", library->loaded);
  cJSON_AddStringToObject(object, "path", library->path);
  cJSON_AddStringToObject(object, "tried", library->tried);
  cJSON_AddStringToObject(object, "version", library->version);
  cJSON_AddStringToObject(object, "error", library->error);
  return object;
}

static cJSON* rl_doctor_devices_json(const rl_doctor_report_t* report) {
  cJSON* devices = cJSON_CreateArray();
  for (uint32_t i = 0; i < report->device_count; ++i) {
    const rl_doctor_device_t* device = &report->devices[i];
    cJSON* object = cJSON_CreateObject();
    cJSON_AddStringToObject(object, "kind", device->kind);
    cJSON_AddStringToObject(object, "target", device->target);
    cJSON_AddBoolToObject(object, "hardware", device->hardware);
    cJSON_AddBoolToObject(object, "available", device->available);
    cJSON* routes = cJSON_AddArrayToObject(object, "routes");
    for (uint32_t bit = 0; rl_doctor_route_of_bit(bit); ++bit) {
      if (!(device->routes & (1u << bit))) continue;
      cJSON_AddItemToArray(routes,
                           cJSON_CreateString(rl_doctor_route_of_bit(bit)));
    }
    cJSON_AddStringToObject(object, "reason", device->reason);
    cJSON_AddItemToArray(devices, object);
  }
  return devices;
}

static cJSON* rl_doctor_json(const rl_doctor_report_t* report) {
  cJSON* root = cJSON_CreateObject();
  cJSON_AddBoolToObject(root, "hardware", rl_doctor_has_hardware(report));
  cJSON* libraries = cJSON_AddArrayToObject(root, "libraries");
  cJSON_AddItemToArray(libraries, rl_doctor_library_json(&report->hsa));
  cJSON_AddItemToArray(libraries, rl_doctor_library_json(&report->hip));
  cJSON_AddItemToArray(libraries, rl_doctor_library_json(&report->drm));
  cJSON* kfd = cJSON_AddObjectToObject(root, "kfd");
  cJSON_AddBoolToObject(kfd, "present", report->kfd_present);
  cJSON_AddBoolToObject(kfd, "accessible", report->kfd_accessible);
  cJSON_AddStringToObject(kfd, "detail", report->kfd);
  cJSON* nodes = cJSON_AddArrayToObject(root, "render_nodes");
  for (uint32_t i = 0; i < report->node_count; ++i) {
    cJSON* node = cJSON_CreateObject();
    cJSON_AddStringToObject(node, "path", report->nodes[i].path);
    cJSON_AddBoolToObject(node, "accessible", report->nodes[i].accessible);
    cJSON_AddStringToObject(node, "driver", report->nodes[i].driver);
    cJSON_AddStringToObject(node, "detail", report->nodes[i].detail);
    cJSON_AddItemToArray(nodes, node);
  }
  cJSON* agents = cJSON_AddArrayToObject(root, "agents");
  for (uint32_t i = 0; i < report->agent_count; ++i) {
    const rl_doctor_agent_t* agent = &report->agents[i];
    cJSON* object = cJSON_CreateObject();
    cJSON_AddStringToObject(object, "type", agent->gpu ? "gpu" : "cpu");
    cJSON_AddStringToObject(object, "name", agent->name);
    cJSON_AddStringToObject(object, "vendor", agent->vendor);
    cJSON_AddStringToObject(object, "isa", agent->isa);
    cJSON_AddBoolToObject(object, "supported", agent->supported);
    cJSON_AddStringToObject(object, "reason", agent->reason);
    cJSON_AddItemToArray(agents, object);
  }
  cJSON_AddItemToObject(root, "devices", rl_doctor_devices_json(report));
  return root;
}

int rl_cmd_doctor(int argc, char** argv) {
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    if (rl_cli_is(argv[i], "--json")) {
      json = true;
    } else {
      return rl_cli_usage("doctor: unknown option '%s'", argv[i]);
    }
  }
  rl_doctor_report_t* report = calloc(1, sizeof(*report));
  if (!report) return rl_cli_fail(rl_status_out_of_memory(), "doctor");
  rl_status_t status = rl_doctor_collect(report);
  if (status) {
    free(report);
    return rl_cli_fail(status, "doctor");
  }
  int exit_code = RL_EXIT_OK;
  if (json) {
    exit_code = rl_cli_print_json(rl_doctor_json(report));
  } else {
    rl_doctor_print_text(report);
  }
  if (exit_code == RL_EXIT_OK && !rl_doctor_has_hardware(report)) {
    exit_code = RL_EXIT_UNAVAILABLE;
  }
  free(report);
  return exit_code;
}
