// redline/backends/drm_symbols.h — the libdrm_amdgpu and libdrm entry
// points redline loads, listed once. No include guard: an X-macro table;
// define RL_DRM_AMDGPU_SYMBOL(name) (libdrm_amdgpu.so.1) and
// RL_DRM_CORE_SYMBOL(name) (libdrm.so.2) before including it.
//
// Each is a public function of Debian's libdrm-dev 2.4.114 headers
// (amdgpu.h, xf86drm.h); drm_loader.h takes each pointer's type from the
// header's prototype. The submission path follows pm4_reference.md §5.
RL_DRM_AMDGPU_SYMBOL(amdgpu_device_initialize)
RL_DRM_AMDGPU_SYMBOL(amdgpu_device_deinitialize)
RL_DRM_AMDGPU_SYMBOL(amdgpu_query_info)
RL_DRM_AMDGPU_SYMBOL(amdgpu_query_gpu_info)
RL_DRM_AMDGPU_SYMBOL(amdgpu_query_hw_ip_info)
RL_DRM_AMDGPU_SYMBOL(amdgpu_cs_ctx_create)
RL_DRM_AMDGPU_SYMBOL(amdgpu_cs_ctx_free)
RL_DRM_AMDGPU_SYMBOL(amdgpu_bo_alloc)
RL_DRM_AMDGPU_SYMBOL(amdgpu_bo_free)
RL_DRM_AMDGPU_SYMBOL(amdgpu_bo_cpu_map)
RL_DRM_AMDGPU_SYMBOL(amdgpu_bo_cpu_unmap)
RL_DRM_AMDGPU_SYMBOL(amdgpu_bo_va_op)
RL_DRM_AMDGPU_SYMBOL(amdgpu_va_range_alloc)
RL_DRM_AMDGPU_SYMBOL(amdgpu_va_range_free)
RL_DRM_AMDGPU_SYMBOL(amdgpu_bo_list_create)
RL_DRM_AMDGPU_SYMBOL(amdgpu_bo_list_destroy)
RL_DRM_AMDGPU_SYMBOL(amdgpu_cs_submit)
RL_DRM_AMDGPU_SYMBOL(amdgpu_cs_query_fence_status)
RL_DRM_CORE_SYMBOL(drmGetDevices2)
RL_DRM_CORE_SYMBOL(drmFreeDevices)
RL_DRM_CORE_SYMBOL(drmGetVersion)
RL_DRM_CORE_SYMBOL(drmFreeVersion)
