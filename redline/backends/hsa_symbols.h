// redline/backends/hsa_symbols.h — the ROCr (libhsa-runtime64) entry points
// redline uses, listed once. No include guard: this is an X-macro table;
// define RL_HSA_SYMBOL(name) before including it.
//
// Every entry is a public function of Debian's hsa/hsa.h or
// hsa/hsa_ext_amd.h (libhsa-runtime-dev 5.2), present with the same
// signature in every ROCr since 5.0; hsa_loader.h derives each pointer's
// type from the header's own prototype (__typeof__), so a signature that
// does not match the header fails compilation. Nothing here is specific to
// ROCr 5.2: users bring their own ROCm.
//
// Keep it to what the backends call: the loader resolves every entry up
// front and refuses a library that lacks one.

// Runtime and system.
RL_HSA_SYMBOL(hsa_init)
RL_HSA_SYMBOL(hsa_shut_down)
RL_HSA_SYMBOL(hsa_status_string)
RL_HSA_SYMBOL(hsa_system_get_info)

// Agents and ISAs.
RL_HSA_SYMBOL(hsa_iterate_agents)
RL_HSA_SYMBOL(hsa_agent_get_info)
RL_HSA_SYMBOL(hsa_agent_iterate_isas)
RL_HSA_SYMBOL(hsa_isa_get_info_alt)

// Memory pools (hsa_ext_amd.h).
RL_HSA_SYMBOL(hsa_amd_agent_iterate_memory_pools)
RL_HSA_SYMBOL(hsa_amd_memory_pool_get_info)
RL_HSA_SYMBOL(hsa_amd_agent_memory_pool_get_info)
RL_HSA_SYMBOL(hsa_amd_memory_pool_allocate)
RL_HSA_SYMBOL(hsa_amd_memory_pool_free)
RL_HSA_SYMBOL(hsa_amd_agents_allow_access)
RL_HSA_SYMBOL(hsa_amd_pointer_info)
RL_HSA_SYMBOL(hsa_memory_copy)

// Queues.
RL_HSA_SYMBOL(hsa_queue_create)
RL_HSA_SYMBOL(hsa_queue_destroy)
RL_HSA_SYMBOL(hsa_queue_load_read_index_scacquire)
RL_HSA_SYMBOL(hsa_queue_load_write_index_relaxed)
RL_HSA_SYMBOL(hsa_queue_add_write_index_screlease)

// Signals.
RL_HSA_SYMBOL(hsa_signal_create)
RL_HSA_SYMBOL(hsa_signal_destroy)
RL_HSA_SYMBOL(hsa_signal_store_screlease)
RL_HSA_SYMBOL(hsa_signal_load_scacquire)
RL_HSA_SYMBOL(hsa_signal_wait_scacquire)

// Code objects and executables.
RL_HSA_SYMBOL(hsa_code_object_reader_create_from_memory)
RL_HSA_SYMBOL(hsa_code_object_reader_destroy)
RL_HSA_SYMBOL(hsa_executable_create_alt)
RL_HSA_SYMBOL(hsa_executable_load_agent_code_object)
RL_HSA_SYMBOL(hsa_executable_freeze)
RL_HSA_SYMBOL(hsa_executable_get_symbol_by_name)
RL_HSA_SYMBOL(hsa_executable_symbol_get_info)
RL_HSA_SYMBOL(hsa_executable_destroy)
