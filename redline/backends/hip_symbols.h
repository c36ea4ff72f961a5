// redline/backends/hip_symbols.h — the HIP runtime (libamdhip64) entry
// points redline loads, listed once. No include guard: an X-macro table;
// define RL_HIP_SYMBOL(name) before including it.
//
// Each is a public function of Debian's hip/hip_runtime_api.h (HIP 5.2,
// compiled with __HIP_PLATFORM_AMD__); hip_loader.h takes each pointer's
// type from the header's prototype. `redline doctor` uses the version and
// device queries today; the rest are resolved up front for the HIP capture
// and shadow arms, so a library lacking one is refused now rather than in
// the middle of a run. Note hipGetDeviceProperties: HIP 6 renamed the
// default to hipGetDevicePropertiesR0600 (a larger hipDeviceProp_t) and
// kept the old symbol with the 5.x layout this header describes, which is
// the one loaded here.
RL_HIP_SYMBOL(hipInit)
RL_HIP_SYMBOL(hipRuntimeGetVersion)
RL_HIP_SYMBOL(hipDriverGetVersion)
RL_HIP_SYMBOL(hipGetErrorName)
RL_HIP_SYMBOL(hipGetErrorString)
RL_HIP_SYMBOL(hipGetDeviceCount)
RL_HIP_SYMBOL(hipGetDeviceProperties)
RL_HIP_SYMBOL(hipModuleLoadData)
RL_HIP_SYMBOL(hipModuleUnload)
RL_HIP_SYMBOL(hipModuleGetFunction)
RL_HIP_SYMBOL(hipModuleGetGlobal)
RL_HIP_SYMBOL(hipModuleLaunchKernel)
RL_HIP_SYMBOL(hipMalloc)
RL_HIP_SYMBOL(hipFree)
RL_HIP_SYMBOL(hipMemcpy)
RL_HIP_SYMBOL(hipMemGetAddressRange)
RL_HIP_SYMBOL(hipStreamCreate)
RL_HIP_SYMBOL(hipStreamSynchronize)
RL_HIP_SYMBOL(hipStreamQuery)
RL_HIP_SYMBOL(hipStreamDestroy)
RL_HIP_SYMBOL(hipStreamBeginCapture)
RL_HIP_SYMBOL(hipStreamEndCapture)
RL_HIP_SYMBOL(hipGraphInstantiate)
RL_HIP_SYMBOL(hipGraphLaunch)
RL_HIP_SYMBOL(hipGraphExecDestroy)
RL_HIP_SYMBOL(hipGraphDestroy)
RL_HIP_SYMBOL(hipGraphGetNodes)
RL_HIP_SYMBOL(hipGraphExecKernelNodeSetParams)
