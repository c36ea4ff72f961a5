// redline/backends/doctor_internal.h — the probes redline/doctor.h is built
// from (doctor.c assembles them; doctor_probe.c has HIP, libdrm and the
// device nodes; rocr_agents.c has rl_rocr_probe).
#ifndef REDLINE_BACKENDS_DOCTOR_INTERNAL_H_
#define REDLINE_BACKENDS_DOCTOR_INTERNAL_H_

#include "redline/doctor.h"

#include <stddef.h>

// Copies / appends |text| into |buffer| of |capacity| bytes, truncating
// and always terminating.
void rl_doctor_copy(char* buffer, size_t capacity, const char* text);
void rl_doctor_append(char* buffer, size_t capacity, const char* text);

void rl_doctor_probe_hip(rl_doctor_library_t* library);
// Fills report->drm and report->nodes.
void rl_doctor_probe_drm(rl_doctor_report_t* report);
void rl_doctor_probe_kfd(rl_doctor_report_t* report);

#endif  // REDLINE_BACKENDS_DOCTOR_INTERNAL_H_
