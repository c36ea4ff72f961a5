// The shadow's arm table (shadow/shadow_arm.c): every arm kind's name
// parses back to it, each retained arm prepares exactly one route (the one
// table from arm kinds to routes, shadow/shadow_arm.h), the other arms
// none, and only plain route pm4 is the IB reference. Each property is
// checked with its negative: a kind outside the table has no name, no
// route and no device patch.
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "redline/replay.h"
#include "shadow/shadow.h"
#include "shadow/shadow_arm.h"

static void rl_arm_names_parse_back(void** state) {
  (void)state;
  for (int k = 0; k < RL_SHADOW_ARM_KIND_COUNT_; ++k) {
    const char* name = rl_shadow_arm_kind_name((rl_shadow_arm_kind_t)k);
    rl_shadow_arm_kind_t parsed = RL_SHADOW_ARM_KIND_COUNT_;
    assert_true(rl_shadow_arm_kind_parse(name, &parsed));
    assert_int_equal(parsed, k);
  }
  rl_shadow_arm_kind_t parsed = RL_SHADOW_ARM_EAGER;
  assert_false(rl_shadow_arm_kind_parse("pm5", &parsed));
  assert_string_equal(
      rl_shadow_arm_kind_name((rl_shadow_arm_kind_t)RL_SHADOW_ARM_KIND_COUNT_),
      "unknown");
}

// A retained arm prepares a route whose name is the arm's (pm4-relay: pm4
// with the device patch); every other arm prepares none.
static void rl_arm_routes_are_the_retained_arms(void** state) {
  (void)state;
  uint32_t relays = 0;
  for (int k = 0; k < RL_SHADOW_ARM_KIND_COUNT_; ++k) {
    rl_shadow_arm_kind_t kind = (rl_shadow_arm_kind_t)k;
    bool patch = true;
    rl_route_t route = rl_shadow_arm_kind_route(kind, &patch);
    assert_int_equal(route != RL_ROUTE_NONE, rl_shadow_arm_kind_retained(kind));
    if (route == RL_ROUTE_NONE) {
      assert_false(patch);
      continue;
    }
    char expected[32];
    snprintf(expected, sizeof(expected), "%s%s", rl_route_name(route),
             patch ? "-relay" : "");
    assert_string_equal(rl_shadow_arm_kind_name(kind), expected);
    relays += patch;
  }
  assert_int_equal(relays, 1);
  assert_int_equal(rl_shadow_arm_kind_route(RL_SHADOW_ARM_HIP, NULL),
                   RL_ROUTE_NONE);
  bool patch = true;
  assert_int_equal(rl_shadow_arm_kind_route(
                       (rl_shadow_arm_kind_t)RL_SHADOW_ARM_KIND_COUNT_, &patch),
                   RL_ROUTE_NONE);
  assert_false(patch);
}

static void rl_arm_ib_reference_is_plain_pm4(void** state) {
  (void)state;
  uint32_t references = 0;
  for (int k = 0; k < RL_SHADOW_ARM_KIND_COUNT_; ++k) {
    rl_shadow_arm_kind_t kind = (rl_shadow_arm_kind_t)k;
    if (!rl_shadow_arm_kind_ib_reference(kind)) continue;
    ++references;
    bool patch = true;
    assert_int_equal(rl_shadow_arm_kind_route(kind, &patch), RL_ROUTE_PM4);
    assert_false(patch);
  }
  assert_int_equal(references, 1);
  assert_false(rl_shadow_arm_kind_ib_reference(RL_SHADOW_ARM_PM4_RELAY));
  assert_false(rl_shadow_arm_kind_ib_reference(RL_SHADOW_ARM_DRM));
}

// The device an arm runs on: hip arms on HIP, drm on drm, sim on the
// simulator, the others on the run's device; on drm only the arms that
// need no AQL queue.
static void rl_arm_devices(void** state) {
  (void)state;
  assert_string_equal(rl_shadow_arm_device_kind(RL_SHADOW_ARM_HIP, "sim"),
                      "hip");
  assert_string_equal(rl_shadow_arm_device_kind(RL_SHADOW_ARM_DRM, NULL),
                      "drm");
  assert_string_equal(rl_shadow_arm_device_kind(RL_SHADOW_ARM_SIM, "rocr"),
                      "sim");
  assert_string_equal(rl_shadow_arm_device_kind(RL_SHADOW_ARM_PM4, "rocr"),
                      "rocr");
  assert_string_equal(rl_shadow_arm_device_kind(RL_SHADOW_ARM_AQL, NULL),
                      "sim");
  assert_true(rl_shadow_arm_device_supported(RL_SHADOW_ARM_DRM, "drm"));
  assert_true(rl_shadow_arm_device_supported(RL_SHADOW_ARM_HIPGRAPH, "drm"));
  assert_false(rl_shadow_arm_device_supported(RL_SHADOW_ARM_PM4, "drm"));
  assert_false(rl_shadow_arm_device_supported(RL_SHADOW_ARM_AQL, "drm"));
  assert_true(rl_shadow_arm_device_supported(RL_SHADOW_ARM_PM4, "rocr"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rl_arm_names_parse_back),
      cmocka_unit_test(rl_arm_routes_are_the_retained_arms),
      cmocka_unit_test(rl_arm_ib_reference_is_plain_pm4),
      cmocka_unit_test(rl_arm_devices),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
