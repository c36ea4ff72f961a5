// isa_image_test — image_sample_lz (sim/isa/isa_image.c): the gfx11
// MIMG and gfx12 VSAMPLE fields against llvm-mc-19's encodings, the
// load-time refusals naming the field, and point sampling of a 2-D float
// image in wrap and clamp modes, normalized and unnormalized, on the
// executor against the texel a host computation picks. Negative controls:
// a bilinear sampler, a tiled resource and an unmodelled format fault with
// the field named.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "isa_snippet.h"
#include "isa_test_util.h"
#include "sim/isa/isa_image.h"
#include "sim/isa/isa_inst.h"

#define W 13
#define H 7
#define PITCH 16  // texels

static const char* rl_sample2d =
    "image_sample_lz v4, v[2:3], s[8:15], s[16:19] dmask:0x1 "
    "dim:SQ_RSRC_IMG_2D";

// gfx11 and gfx12 encodings decode to image_sample_lz with their length.
static void test_decode(void** state) {
  (void)state;
  rl_isa_encoded_t e;
  rl_isa_inst_t inst;
  rl_isa_test_assemble("gfx1100", rl_sample2d, &e);
  assert_int_equal(e.count, 2);
  assert_true(rl_isa_decode(e.words, e.count, 0, &inst));
  assert_string_equal(rl_isa_inst_name(&inst), "image_sample_lz");
  assert_int_equal(inst.size, 8);
  assert_null(rl_isa_image_reason(&inst));
  assert_int_equal(rl_isa_image_vgpr_end(&inst), 5);
  rl_isa_test_assemble("gfx1201",
                       "image_sample_lz v2, [v3, v2], s[8:15], s[16:19] "
                       "dmask:0x1 dim:SQ_RSRC_IMG_2D", &e);
  assert_int_equal(e.count, 3);
  assert_true(rl_isa_decode(e.words, e.count, RL_ISA_FEATURE_GFX12, &inst));
  assert_string_equal(rl_isa_inst_name(&inst), "image_sample_lz");
  assert_int_equal(inst.size, 12);
  assert_null(rl_isa_image_reason(&inst));
  assert_int_equal(rl_isa_image_vgpr_end(&inst), 4);
}

// Each unmodelled field is refused at load time, by name.
static void test_refusals(void** state) {
  (void)state;
  static const struct {
    const char* cpu;
    const char* line;
    const char* field;
  } cases[] = {
      {"gfx1100", "image_sample_lz v4, v[2:3], s[8:15], s[16:19] dmask:0x1 "
                  "dim:SQ_RSRC_IMG_2D d16", "D16"},
      {"gfx1100", "image_sample_lz v4, v2, s[8:15], s[16:19] dmask:0x1 "
                  "dim:SQ_RSRC_IMG_2D a16", "A16"},
      {"gfx1100", "image_sample_lz v[4:5], v[2:3], s[8:15], s[16:19] "
                  "dmask:0x1 dim:SQ_RSRC_IMG_2D tfe", "TFE"},
      {"gfx1100", "image_sample_lz v4, v[2:4], s[8:15], s[16:19] dmask:0x1 "
                  "dim:SQ_RSRC_IMG_3D", "DIM"},
      {"gfx1201", "image_sample_lz v2, [v3, v2], s[8:15], s[16:19] "
                  "dmask:0x1 dim:SQ_RSRC_IMG_2D d16", "D16"},
      {"gfx1201", "image_sample_lz v2, [v3, v2], s[8:15], s[16:19] "
                  "dmask:0x1 dim:SQ_RSRC_IMG_2D r128", "R128"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    rl_isa_encoded_t e;
    rl_isa_inst_t inst;
    rl_isa_test_assemble(cases[i].cpu, cases[i].line, &e);
    uint32_t features = cases[i].cpu[4] == '2' ? RL_ISA_FEATURE_GFX12 : 0;
    assert_true(rl_isa_decode(e.words, e.count, features, &inst));
    const char* reason = rl_isa_inst_unsupported_reason(&inst);
    assert_non_null(reason);
    assert_non_null(strstr(reason, cases[i].field));
  }
  // NSA on gfx11: the length is not decoded, so the instruction is unknown.
  rl_isa_encoded_t e;
  rl_isa_inst_t inst;
  rl_isa_test_assemble("gfx1100",
                       "image_sample_lz v4, [v2, v3], s[8:15], s[16:19] "
                       "dmask:0x1 dim:SQ_RSRC_IMG_2D", &e);
  assert_false(rl_isa_decode(e.words, e.count, 0, &inst));
}

// The texel selection: u = c * size (or c), rounded to 1/256, floored,
// then wrapped or clamped.
static void test_texel(void** state) {
  (void)state;
  assert_int_equal(rl_isa_image_texel(0.5f / W, W, false, 2), 0);
  assert_int_equal(rl_isa_image_texel(3.5f / W, W, false, 2), 3);
  assert_int_equal(rl_isa_image_texel(-0.1f, W, false, 2), 0);
  assert_int_equal(rl_isa_image_texel(1.5f, W, false, 2), W - 1);
  assert_int_equal(rl_isa_image_texel(-0.5f / W, W, false, 0), W - 1);
  assert_int_equal(rl_isa_image_texel(1.0f + 2.5f / W, W, false, 0), 2);
  assert_int_equal(rl_isa_image_texel(5.7f, W, true, 2), 5);
  assert_int_equal(rl_isa_image_texel(-3.2f, W, true, 0), W - 4);
  // A coordinate a rounding error below a texel edge selects the texel
  // above it (HIP's floor(x * w) * rcp(w) snapping relies on this).
  float below = nextafterf(3.0f / W, 0.0f);
  assert_int_equal(rl_isa_image_texel(below, W, false, 2), 3);
  assert_int_equal(rl_isa_image_texel(NAN, W, false, 2), 0);
}

typedef struct rl_img_s {
  rl_isa_snippet_t* snippet;
  float* texels;
  uint64_t base;
} rl_img_t;

static void rl_img_create(rl_img_t* img) {
  img->snippet = rl_isa_snippet_create(0);
  void* host = NULL;
  // Room for 16-byte texels too (test_components).
  img->base = rl_isa_snippet_alloc(img->snippet, PITCH * H * 16, &host);
  assert_int_equal(img->base % 256, 0);
  img->texels = host;
  for (int i = 0; i < PITCH * H * 4; ++i) img->texels[i] = (float)(i * 3 + 1);
}

// T# (gfx11 SQ_IMG_RSRC_WORD0..4) of the W x H 32_FLOAT image, S# with
// |clamp| on X and Y, |unnorm|, |filter| as XY_MAG/MIN_FILTER.
static void rl_img_descriptors(rl_img_t* img, uint32_t clamp, bool unnorm,
                               uint32_t filter, uint32_t format,
                               uint32_t sw_mode) {
  rl_isa_wave_t* wave = rl_isa_snippet_wave(img->snippet);
  uint32_t* t = &wave->sgpr[8];
  memset(t, 0, 12 * 4);
  t[0] = (uint32_t)(img->base >> 8);
  t[1] = (uint32_t)((img->base >> 40) & 0xff) | format << 20 |
         ((W - 1) & 3u) << 30;
  t[2] = ((W - 1) >> 2) | (H - 1) << 14;
  t[3] = 4u | 0u << 3 | 0u << 6 | 1u << 9 | sw_mode << 20 | 9u << 28;
  t[4] = PITCH - 1;
  uint32_t* s = &wave->sgpr[16];
  s[0] = clamp | clamp << 3 | (unnorm ? 1u : 0u) << 15;
  s[2] = filter << 20 | filter << 22;
}

static void test_sample(void** state) {
  (void)state;
  static const struct {
    uint32_t clamp;
    bool unnorm;
  } modes[] = {{0, false}, {2, false}, {0, true}, {2, true}};
  static const char* lines[1];
  lines[0] = rl_sample2d;
  for (size_t m = 0; m < 4; ++m) {
    rl_img_t img;
    rl_img_create(&img);
    rl_isa_snippet_load(img.snippet, lines, 1);
    rl_img_descriptors(&img, modes[m].clamp, modes[m].unnorm, 0, 22, 0);
    rl_isa_wave_t* wave = rl_isa_snippet_wave(img.snippet);
    int want_x[32], want_y[32];
    for (int l = 0; l < 32; ++l) {
      // Texels -W..2W-1, inside the texel at 0.25 + 0.5 * (l % 2) of it.
      int kx = (l * 5) % (3 * W) - W, ky = (l * 3) % (3 * H) - H;
      float ux = (float)kx + 0.25f + 0.5f * (float)(l % 2);
      float uy = (float)ky + 0.75f - 0.5f * (float)(l % 2);
      float x = modes[m].unnorm ? ux : ux / W;
      float y = modes[m].unnorm ? uy : uy / H;
      memcpy(&wave->vgpr[2][l], &x, 4);
      memcpy(&wave->vgpr[3][l], &y, 4);
      if (modes[m].clamp == 0) {
        want_x[l] = ((kx % W) + W) % W;
        want_y[l] = ((ky % H) + H) % H;
      } else {
        want_x[l] = kx < 0 ? 0 : kx >= W ? W - 1 : kx;
        want_y[l] = ky < 0 ? 0 : ky >= H ? H - 1 : ky;
      }
    }
    wave->sgpr[RL_ISA_SRC_EXEC] = 0x7fffffffu;  // lane 31 keeps its v4
    wave->vgpr[4][31] = 0xdeadbeefu;
    rl_status_t status = rl_isa_snippet_run(img.snippet);
    assert_int_equal(rl_status_code(status), RL_STATUS_OK);
    for (int l = 0; l < 31; ++l) {
      float got;
      memcpy(&got, &wave->vgpr[4][l], 4);
      assert_float_equal(got, img.texels[want_y[l] * PITCH + want_x[l]], 0);
    }
    assert_int_equal(wave->vgpr[4][31], 0xdeadbeefu);
    rl_isa_snippet_destroy(img.snippet);
  }
}

// DMASK 0xf: the DST_SEL of each component — a one-channel format gives
// (X, 0, 0, 1.0), a four-channel one its four channels in order.
static void test_components(void** state) {
  (void)state;
  static const char* lines[1];
  lines[0] = "image_sample_lz v[4:7], v[2:3], s[8:15], s[16:19] dmask:0xf "
             "dim:SQ_RSRC_IMG_2D";
  for (int four = 0; four < 2; ++four) {
    rl_img_t img;
    rl_img_create(&img);
    rl_isa_snippet_load(img.snippet, lines, 1);
    rl_img_descriptors(&img, 2, true, 0, four ? 63 : 22, 0);
    rl_isa_wave_t* wave = rl_isa_snippet_wave(img.snippet);
    if (four) wave->sgpr[8 + 3] = (wave->sgpr[8 + 3] & ~0xfffu) | 4u | 5u << 3 |
                                  6u << 6 | 7u << 9;
    // Four-channel texels are 16 bytes: texel (x, y) starts at float
    // 4 * (y * PITCH + x) of the same buffer.
    for (int l = 0; l < 32; ++l) {
      float x = (float)(l % W) + 0.5f, y = (float)(l % H) + 0.5f;
      memcpy(&wave->vgpr[2][l], &x, 4);
      memcpy(&wave->vgpr[3][l], &y, 4);
    }
    rl_status_t status = rl_isa_snippet_run(img.snippet);
    assert_int_equal(rl_status_code(status), RL_STATUS_OK);
    for (int l = 0; l < 32; ++l) {
      float got[4];
      for (int c = 0; c < 4; ++c) memcpy(&got[c], &wave->vgpr[4 + c][l], 4);
      if (four) {
        int t = 4 * ((l % H) * PITCH + l % W);
        for (int c = 0; c < 4; ++c) {
          assert_float_equal(got[c], img.texels[t + c], 0);
        }
      } else {
        assert_float_equal(got[0], img.texels[(l % H) * PITCH + l % W], 0);
        assert_float_equal(got[1], 0.0f, 0);
        assert_float_equal(got[2], 0.0f, 0);
        assert_float_equal(got[3], 1.0f, 0);
      }
    }
    rl_isa_snippet_destroy(img.snippet);
  }
}

// Negative controls: descriptors the executor does not model fault with
// the field and its value named.
static void test_descriptor_refusals(void** state) {
  (void)state;
  static const struct {
    uint32_t clamp, filter, format, sw_mode;
    const char* field;
  } cases[] = {
      {2, 1, 22, 0, "XY_MAG_FILTER 1"},
      {1, 0, 22, 0, "CLAMP_X 1"},
      {2, 0, 1, 0, "FORMAT 1"},
      {2, 0, 22, 9, "SW_MODE 9"},
  };
  static const char* lines[1];
  lines[0] = rl_sample2d;
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    rl_img_t img;
    rl_img_create(&img);
    rl_isa_snippet_load(img.snippet, lines, 1);
    rl_img_descriptors(&img, cases[i].clamp, false, cases[i].filter,
                       cases[i].format, cases[i].sw_mode);
    rl_status_t status = rl_isa_snippet_run(img.snippet);
    assert_int_not_equal(rl_status_code(status), RL_STATUS_OK);
    assert_non_null(strstr(rl_status_message(status), cases[i].field));
    rl_status_free(status);
    rl_isa_snippet_destroy(img.snippet);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_decode),
      cmocka_unit_test(test_refusals),
      cmocka_unit_test(test_texel),
      cmocka_unit_test(test_sample),
      cmocka_unit_test(test_components),
      cmocka_unit_test(test_descriptor_refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
