// The compiled patch table (capture/bind/bind_table.h).
#include "capture/bind/bind_table.h"

#include <stdlib.h>
#include <string.h>

#include "capture/bind/launch_bind.h"
#include "base/test_fault.h"

rl_status_t rl_bind_table_create(const rl_capture_t* capture,
                                 rl_bind_table_t** out_table) {
  *out_table = NULL;
  rl_bind_table_t* table = calloc(1, sizeof(*table));
  if (!table) return rl_status_out_of_memory();
  table->capture = capture;
  *out_table = table;
  return RL_OK;
}

void rl_bind_table_destroy(rl_bind_table_t* table) {
  if (!table) return;
  free(table->sites);
  free(table->exprs);
  free(table->site_index);
  free(table->hot);
  free(table->pointer_sites);
  free(table->bound_sites);
  free(table->pending);
  free(table);
}

rl_status_t rl_bind_table_add(rl_bind_table_t* table, rl_bind_site_kind_t kind,
                              uint32_t launch, uint32_t ref, uint8_t dest,
                              uint32_t offset, uint8_t width, uint32_t scale,
                              uint64_t current) {
  const rl_capture_t* capture = table->capture;
  bool valid = launch < capture->launch_count && dest < RL_BIND_MAX_DESTS &&
               (width == 4 || width == 8) && !table->exprs;
  if (valid && kind == RL_BIND_SITE_POINTER) {
    valid = ref < capture->launches[launch].slot_count && width == 8;
  } else if (valid) {
    const rl_capture_launch_t* l = &capture->launches[launch];
    uint32_t axis = ref < l->binding_count ? l->bindings[ref].offset : 0;
    valid = ref < l->binding_count && scale >= 1 &&
            (kind == RL_BIND_SITE_GRID
                 ? l->bindings[ref].target == RL_BINDING_GRID &&
                       (scale == 1 || scale == l->block[axis < 3 ? axis : 0])
                 : kind == RL_BIND_SITE_KERNARG && scale == 1 &&
                       l->bindings[ref].target == RL_BINDING_KERNARG);
  }
  if (!valid) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "bind table: site kind %u launch %u ref %u dest %u "
                     "width %u scale %u does not match the capture",
                     (unsigned)kind, launch, ref, dest, width, scale);
  }
  if (table->site_count == table->site_capacity) {
    uint32_t capacity = table->site_capacity ? 2 * table->site_capacity : 64;
    rl_bind_site_t* sites = realloc(table->sites, capacity * sizeof(*sites));
    if (!sites) return rl_status_out_of_memory();
    table->sites = sites;
    table->site_capacity = capacity;
  }
  bool bound = kind == RL_BIND_SITE_POINTER &&
               rl_capture_slot_binding(&capture->launches[launch], ref);
  table->sites[table->site_count++] = (rl_bind_site_t){
      .offset = offset, .width = width, .dest = dest, .kind = (uint8_t)kind,
      .launch = launch, .ref = ref, .scale = bound ? 1 : scale,
      .current = current, .bound = bound,
      // The buffer's address, as the route resolved it (rebase updates it).
      .bias = bound ? current - capture->launches[launch].slots[ref].offset
                    : 0};
  return RL_OK;
}

rl_status_t rl_bind_table_relay(rl_bind_table_t* table, uint32_t index,
                                uint8_t dest, uint32_t offset) {
  if (table->exprs || index >= table->site_count ||
      table->sites[index].kind == RL_BIND_SITE_POINTER ||
      dest >= RL_BIND_MAX_DESTS) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "bind table: cannot relay site %u (of %u) to "
                     "destination %u%s",
                     index, table->site_count, dest,
                     table->exprs ? " after finish" : "");
  }
  rl_bind_site_t* site = &table->sites[index];
  site->relayed = true;
  site->relay_dest = dest;
  site->relay_offset = offset;
  return RL_OK;
}

// The binding a dynamic or bound pointer site evaluates.
static const rl_scalar_binding_t* rl_bind_site_binding(
    const rl_bind_table_t* table, const rl_bind_site_t* site) {
  const rl_capture_launch_t* launch = &table->capture->launches[site->launch];
  if (site->kind == RL_BIND_SITE_POINTER) {
    return rl_capture_slot_binding(launch, site->ref);
  }
  return &launch->bindings[site->ref];
}

// Assigns expression ids to the dynamic sites (an open-addressing map from
// expression to id) and counts each expression's sites.
static rl_status_t rl_bind_table_number(rl_bind_table_t* table,
                                        uint32_t dynamic) {
  uint32_t slots = 16;
  while (slots < 2u * dynamic) slots *= 2;
  uint32_t* map = malloc(slots * sizeof(*map));
  table->exprs = calloc(dynamic + 1u, sizeof(*table->exprs));
  if (!map || !table->exprs) {
    free(map);
    return rl_status_out_of_memory();
  }
  memset(map, 0xFF, slots * sizeof(*map));
  for (uint32_t i = 0; i < table->site_count; ++i) {
    rl_bind_site_t* site = &table->sites[i];
    if (site->kind == RL_BIND_SITE_POINTER && !site->bound) continue;
    const rl_scalar_binding_t* binding = rl_bind_site_binding(table, site);
    const rl_expr_t* expr = &binding->expr;
    uint32_t at = (uint32_t)rl_bind_expr_hash(expr) & (slots - 1);
    while (map[at] != UINT32_MAX &&
           !rl_bind_expr_same(&table->exprs[map[at]].expr, expr)) {
      at = (at + 1) & (slots - 1);
    }
    if (map[at] == UINT32_MAX) {
      map[at] = table->expr_count;
      table->exprs[table->expr_count++] =
          (rl_bind_expr_t){.expr = *expr, .lo = INT64_MIN, .hi = INT64_MAX};
    }
    site->expr = map[at];
    rl_bind_expr_t* e = &table->exprs[site->expr];
    if (!site->bound) ++e->count;
    const rl_capture_launch_t* launch = &table->capture->launches[site->launch];
    int64_t lo = 0, hi = 0;
    rl_bind_fit_range(table->capture, launch, binding, &lo, &hi);
    if (lo > e->lo) e->lo = lo;
    if (hi < e->hi) e->hi = hi;
  }
  free(map);
  return RL_OK;
}

rl_status_t rl_bind_table_finish(rl_bind_table_t* table,
                                 const int64_t* values) {
  if (table->exprs) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT, "bind table: finished twice");
  }
  uint32_t dynamic = 0, bound = 0;
  for (uint32_t i = 0; i < table->site_count; ++i) {
    if (table->sites[i].kind != RL_BIND_SITE_POINTER) ++dynamic;
    bound += table->sites[i].bound;
  }
  table->pointer_count = table->site_count - dynamic;
  table->site_index = calloc(dynamic + 1u, sizeof(uint32_t));
  table->hot = calloc(dynamic + 1u, sizeof(*table->hot));
  table->pointer_sites = calloc(table->pointer_count + 1u, sizeof(uint32_t));
  table->bound_sites = calloc(bound + 1u, sizeof(uint32_t));
  if (!table->site_index || !table->hot || !table->pointer_sites ||
      !table->bound_sites) {
    return rl_status_out_of_memory();
  }
  RL_RETURN_IF_ERROR(rl_bind_table_number(table, dynamic + bound));
  table->pending = calloc(table->expr_count + 1u, sizeof(int64_t));
  if (!table->pending) return rl_status_out_of_memory();
  // Each expression's sites, in table order: a counting sort by id.
  uint32_t first = 0;
  for (uint32_t e = 0; e < table->expr_count; ++e) {
    table->exprs[e].first = first;
    first += table->exprs[e].count;
    table->exprs[e].count = 0;
    table->exprs[e].hot_count = 0;
  }
  uint32_t pointers = 0;
  for (uint32_t i = 0; i < table->site_count; ++i) {
    const rl_bind_site_t* site = &table->sites[i];
    if (site->kind == RL_BIND_SITE_POINTER) {
      table->pointer_sites[pointers++] = i;
      if (site->bound) table->bound_sites[table->bound_count++] = i;
      continue;
    }
    rl_bind_expr_t* e = &table->exprs[site->expr];
    table->site_index[e->first + e->count++] = i;
    if (site->relayed) continue;
    table->hot[e->first + e->hot_count++] =
        (rl_bind_hot_t){.offset = site->offset, .scale = site->scale,
                        .dest = site->dest, .width = site->width};
  }
  // Then one store per distinct relay slot of each expression (a few: the
  // scan covers the expression's slots only; pending[] is apply's scratch,
  // free until then).
  for (uint32_t e = 0; e < table->expr_count; ++e) {
    table->pending[e] = table->exprs[e].hot_count;
  }
  for (uint32_t i = 0; i < table->site_count; ++i) {
    const rl_bind_site_t* site = &table->sites[i];
    if (site->kind == RL_BIND_SITE_POINTER || !site->relayed) continue;
    rl_bind_expr_t* e = &table->exprs[site->expr];
    const rl_bind_hot_t hot = {.offset = site->relay_offset,
                               .scale = site->scale,
                               .dest = site->relay_dest, .width = 8};
    bool seen = false;
    for (uint32_t k = (uint32_t)table->pending[site->expr];
         k < e->hot_count && !seen; ++k) {
      const rl_bind_hot_t* h = &table->hot[e->first + k];
      seen = h->dest == hot.dest && h->offset == hot.offset &&
             h->scale == hot.scale;
    }
    if (!seen) table->hot[e->first + e->hot_count++] = hot;
  }
  table->synced = true;
  // The values the sites hold now; an expression the values do not
  // evaluate leaves the table unevaluated (the first apply visits every
  // site).
  table->evaluated = values != NULL;
  for (uint32_t e = 0; values && e < table->expr_count; ++e) {
    rl_status_t status =
        rl_expr_evaluate(&table->exprs[e].expr, values,
                         table->capture->param_count, &table->exprs[e].value);
    if (status) {
      rl_status_free(status);
      table->evaluated = false;
    }
  }
  // A bound pointer site holds its buffer's address + its expression's
  // value at |values| (rl_bind_table_add assumed the recorded offset).
  for (uint32_t k = 0; table->evaluated && k < table->bound_count; ++k) {
    rl_bind_site_t* site = &table->sites[table->bound_sites[k]];
    site->bias = site->current - (uint64_t)table->exprs[site->expr].value;
  }
  return RL_OK;
}

// Stores |value| at |site| (and its mirror).
// A relayed site stores its slot instead (all 8 bytes).
static inline void rl_bind_site_store(const rl_bind_site_t* site,
                                      const rl_bind_dest_t* dests,
                                      uint32_t offset, uint64_t value) {
  const rl_bind_dest_t* dest = &dests[site->relayed ? site->relay_dest
                                                    : site->dest];
  if (site->relayed) offset = site->relay_offset;
  const uint32_t width = site->relayed ? 8u : site->width;
  uint8_t* at = dest->base + offset;
  for (uint32_t i = 0; i < width; ++i) at[i] = (uint8_t)(value >> (8 * i));
  if (dest->mirror && dest->mirror != dest->base) {
    memcpy(dest->mirror + offset, at, width);
  }
}

// Brings sites[].current of the dynamic sites up to date after fast
// applies (they hold exprs[].value × scale).
static void rl_bind_table_sync(rl_bind_table_t* table) {
  if (table->synced) return;
  for (uint32_t i = 0; i < table->site_count; ++i) {
    rl_bind_site_t* site = &table->sites[i];
    if (site->kind == RL_BIND_SITE_POINTER) continue;
    site->current = (uint64_t)table->exprs[site->expr].value * site->scale;
  }
  table->synced = true;
}

// The fast path's store: |value| at |hot| (and its mirror), little-endian.
static inline void rl_bind_hot_store(const rl_bind_hot_t* hot,
                                     const rl_bind_dest_t* dests,
                                     uint64_t value) {
  const rl_bind_dest_t* dest = &dests[hot->dest];
  uint8_t* at = dest->base + hot->offset;
  if (hot->width == 8) {
    for (int i = 0; i < 8; ++i) at[i] = (uint8_t)(value >> (8 * i));
  } else {
    for (int i = 0; i < 4; ++i) at[i] = (uint8_t)(value >> (8 * i));
  }
  if (dest->mirror && dest->mirror != dest->base) {
    memcpy(dest->mirror + hot->offset, at, hot->width);
  }
}

// The slow path: every dynamic site evaluated on its own, in table order,
// with the test faults' mistakes. All or nothing like the fast path.
static rl_status_t rl_bind_table_apply_each(rl_bind_table_t* table,
                                            const int64_t* values,
                                            const rl_bind_dest_t* dests,
                                            bool faults,
                                            uint32_t* out_changed) {
  const rl_capture_t* capture = table->capture;
  uint64_t* pending = calloc(table->site_count + 1u, sizeof(uint64_t));
  if (!pending) return rl_status_out_of_memory();
  rl_bind_table_sync(table);
  for (uint32_t i = 0; i < table->site_count; ++i) {
    const rl_bind_site_t* site = &table->sites[i];
    if (site->kind == RL_BIND_SITE_POINTER && site->bound) {
      const rl_capture_launch_t* launch = &capture->launches[site->launch];
      const rl_scalar_binding_t* binding =
          rl_capture_slot_binding(launch, site->ref);
      rl_status_t status = rl_launch_binding_evaluate(
          capture, site->launch, (uint32_t)(binding - launch->bindings),
          values, capture->param_count, &pending[i]);
      if (status) {
        free(pending);
        return status;
      }
      pending[i] += site->bias;
      continue;
    }
    if (site->kind == RL_BIND_SITE_POINTER) continue;
    rl_status_t status = rl_launch_site_value(
        capture, site->launch, site->ref, values, site->scale > 1, &pending[i]);
    if (status) {
      free(pending);
      return status;
    }
  }
  uint32_t changed = 0;
  for (uint32_t i = 0; i < table->site_count; ++i) {
    rl_bind_site_t* site = &table->sites[i];
    if ((site->kind == RL_BIND_SITE_POINTER && !site->bound) ||
        pending[i] == site->current) {
      continue;
    }
    uint32_t offset = site->offset;
    bool skip = false;
    if (site->relayed) {
      // The device writes the site from its slot: no fault applies.
    } else if (faults && site->kind == RL_BIND_SITE_GRID) {
      skip = rl_test_fault("grid-skip", site->launch);
    } else if (faults) {
      skip = rl_test_fault("patch-skip", site->launch);
      if (rl_test_fault("patch-off", site->launch) &&
          offset + 4u + site->width <= dests[site->dest].size) {
        offset += 4;
      }
    }
    if (!skip) rl_bind_site_store(site, dests, offset, pending[i]);
    site->current = pending[i];
    ++changed;
  }
  free(pending);
  table->evaluated = false;
  *out_changed = changed;
  return RL_OK;
}

// The bound pointer sites at the expressions' values (exprs[].value):
// writes those that changed and returns how many.
static uint32_t rl_bind_table_apply_bound(rl_bind_table_t* table,
                                          const rl_bind_dest_t* dests) {
  uint32_t changed = 0;
  for (uint32_t k = 0; k < table->bound_count; ++k) {
    rl_bind_site_t* site = &table->sites[table->bound_sites[k]];
    uint64_t v = site->bias + (uint64_t)table->exprs[site->expr].value;
    if (v == site->current) continue;
    rl_bind_site_store(site, dests, site->offset, v);
    site->current = v;
    ++changed;
  }
  return changed;
}

rl_status_t rl_bind_table_apply(rl_bind_table_t* table, const int64_t* values,
                                uint32_t param_count,
                                const rl_bind_dest_t* dests,
                                uint32_t* out_changed) {
  *out_changed = 0;
  const rl_capture_t* capture = table->capture;
  if (param_count != capture->param_count || !table->exprs) {
    return RL_STATUS(RL_STATUS_INVALID_ARGUMENT,
                     "apply: %u parameter values for %u parameters%s",
                     param_count, capture->param_count,
                     table->exprs ? "" : ", table not finished");
  }
  if (rl_test_fault_name()[0] != '\0') {
    return rl_bind_table_apply_each(table, values, dests, true, out_changed);
  }
  // 1. Each distinct expression once, checked against its sites' rule.
  for (uint32_t e = 0; e < table->expr_count; ++e) {
    const rl_bind_expr_t* expr = &table->exprs[e];
    int64_t value = 0;
    rl_status_t status =
        rl_expr_evaluate(&expr->expr, values, param_count, &value);
    if (status || value < expr->lo || value > expr->hi) {
      // The message of the first site that fails, from the evaluator.
      rl_status_free(status);
      return rl_bind_table_apply_each(table, values, dests, false,
                                      out_changed);
    }
    table->pending[e] = value;
  }
  // 2. The sites of changed expressions.
  uint32_t changed = 0;
  if (!table->evaluated) {
    // What the sites hold is only in sites[] (synced): compare each.
    for (uint32_t e = 0; e < table->expr_count; ++e) {
      rl_bind_expr_t* expr = &table->exprs[e];
      expr->value = table->pending[e];
      for (uint32_t k = 0; k < expr->count; ++k) {
        rl_bind_site_t* site =
            &table->sites[table->site_index[expr->first + k]];
        uint64_t v = (uint64_t)expr->value * site->scale;
        if (v == site->current) continue;
        rl_bind_site_store(site, dests, site->offset, v);
        site->current = v;
        ++changed;
      }
    }
    table->evaluated = true;
    *out_changed = changed + rl_bind_table_apply_bound(table, dests);
    return RL_OK;
  }
  for (uint32_t e = 0; e < table->expr_count; ++e) {
    rl_bind_expr_t* expr = &table->exprs[e];
    const int64_t value = table->pending[e];
    if (value == expr->value) continue;
    // Every site of the expression holds old × scale != value × scale (the
    // fit range keeps the products exact).
    expr->value = value;
    table->synced = false;
    const rl_bind_hot_t* hot = table->hot + expr->first;
    for (uint32_t k = 0; k < expr->hot_count; ++k) {
      rl_bind_hot_store(&hot[k], dests, (uint64_t)value * hot[k].scale);
    }
    changed += expr->hot_count;
  }
  *out_changed = changed + rl_bind_table_apply_bound(table, dests);
  return RL_OK;
}

rl_status_t rl_bind_table_rebase(rl_bind_table_t* table,
                                 const uint64_t* buffer_addresses,
                                 const rl_bind_dest_t* dests,
                                 uint32_t* out_changed) {
  *out_changed = 0;
  uint64_t* pending = calloc(table->pointer_count + 1u, sizeof(uint64_t));
  if (!pending) return rl_status_out_of_memory();
  for (uint32_t k = 0; k < table->pointer_count; ++k) {
    const rl_bind_site_t* site = &table->sites[table->pointer_sites[k]];
    rl_status_t status =
        rl_launch_pointer_value(table->capture, site->launch, site->ref,
                                buffer_addresses, &pending[k]);
    if (status) {
      free(pending);
      return status;
    }
    if (site->bound) {
      // The buffer's address; the site holds it + the expression's value
      // (the recorded offset until an apply evaluated it).
      uint64_t recorded =
          table->capture->launches[site->launch].slots[site->ref].offset;
      table->sites[table->pointer_sites[k]].bias = pending[k] - recorded;
      if (table->evaluated) {
        pending[k] += (uint64_t)table->exprs[site->expr].value - recorded;
      }
    }
  }
  uint32_t changed = 0;
  for (uint32_t k = 0; k < table->pointer_count; ++k) {
    rl_bind_site_t* site = &table->sites[table->pointer_sites[k]];
    if (pending[k] == site->current) continue;
    rl_bind_site_store(site, dests, site->offset, pending[k]);
    site->current = pending[k];
    ++changed;
  }
  free(pending);
  *out_changed = changed;
  return RL_OK;
}
