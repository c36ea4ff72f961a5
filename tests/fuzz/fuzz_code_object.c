// libFuzzer target for capture/code_object/code_object.c: any byte string must either
// parse into a model whose image can be loaded, or fail with a status;
// never crash, hang, leak or read out of bounds. Seeds: the .co files in
// RL_KERNELS_DIR (the build's kernels/ directory).
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "redline/code_object.h"

// Largest image this target lays out; bigger (valid) objects stop at parse.
#define RL_FUZZ_MAX_IMAGE_SIZE ((uint64_t)64 << 20)

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rl_code_object_t* code_object = NULL;
  rl_status_t status = rl_code_object_parse(data, size, &code_object);
  if (status) {
    rl_status_free(status);
    return 0;
  }
  for (uint32_t i = 0; i < code_object->kernel_count; ++i) {
    const rl_code_object_kernel_t* kernel = &code_object->kernels[i];
    if (rl_code_object_find_kernel(code_object, kernel->symbol) == NULL) abort();
  }
  if (code_object->image_size <= RL_FUZZ_MAX_IMAGE_SIZE) {
    size_t image_size = (size_t)code_object->image_size;
    void* image = malloc(image_size ? image_size : 1);
    if (image) {
      rl_status_free(rl_code_object_load_image(code_object, data, size,
                                               0x100000000ull, image,
                                               image_size));
      free(image);
    }
  }
  rl_code_object_destroy(code_object);
  return 0;
}
