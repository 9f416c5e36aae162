/*
** result.c — a launch's result as a Lua table. docs/results.md documents
** every field; the prelude's Result metatable prints it.
*/
#include <stdio.h>
#include <string.h>
#include <lauxlib.h>
#include "api/lua_keys.h"
#include "api/result_lua.h"
#include "api/session.h"

void push_shape(lua_State *L, long long value)
{
    lua_createtable(L, 2, 0);
    lua_pushinteger(L, SHAPE_X(value));
    lua_rawseti(L, -2, 1);
    lua_pushinteger(L, SHAPE_Y(value));
    lua_rawseti(L, -2, 2);
}

/* Whether the hardware gave both counters (a direction's requests and sectors, say). */
static int hardware_has(const struct result *r, enum counter_id a, enum counter_id b)
{
    return r->have_counters && counter_was_read(&r->counters, a) && counter_was_read(&r->counters, b);
}

/* Why counter id holds no value on this GPU, in one phrase. */
static const char *missing_reason(const struct counter_values *v, enum counter_id id, char *text, size_t size)
{
    if (v->state[id] == COUNTER_NOT_ON_CHIP)
        snprintf(text, size, SAY("the %s chip has no such counter", "%s 芯片没有这个计数器"), v->chip);
    else
        snprintf(text, size, SAY("the profiler does not offer it on this %s", "这块 %s 上的性能分析工具不提供它"), v->chip);
    return text;
}

/* The model's traffic with requests and sectors replaced by the hardware's. */
static struct traffic measured_traffic(const struct traffic *model, double requests, double sectors)
{
    struct traffic t = *model;
    t.requests = (uint64_t)requests;
    t.sectors = (uint64_t)sectors;
    return t;
}

/* One direction's traffic: counts, per-request averages and where they came from. */
static void push_traffic(lua_State *L, const struct traffic *t, const char *source)
{
    lua_createtable(L, 0, 9);
    SET_INTEGER("requests", t->requests);
    SET_INTEGER("sectors", t->sectors);
    SET_INTEGER("lines", t->lines);
    SET_INTEGER("bytes", t->bytes);
    SET_NUMBER("sectors_per_request", per_request(t->sectors, t->requests));
    SET_NUMBER("ideal", per_request(t->ideal_sectors, t->requests));
    SET_NUMBER("useful_fraction", t->sectors ? (double)t->bytes / (32.0 * t->sectors) : 1.0);
    SET_STRING("source", source);
    if (strcmp(source, "model") == 0) {   /* an estimate: the hardware's is counters.l2_read_sectors */
        SET_INTEGER("l2_sectors", t->l2_sectors);
        SET_INTEGER("l2_lines", t->l2_lines);
    }
}

void result_push_params(lua_State *L, const struct family *f, const struct params *p)
{
    lua_createtable(L, 0, f->param_count);
    for (int i = 0; i < f->param_count; i++) {
        const struct param_decl *d = &f->params[i];
        if (d->type == PARAM_CHOICE)
            lua_pushstring(L, d->choices[p->v[i]]);
        else if (d->type == PARAM_SHAPE)
            push_shape(L, p->v[i]);
        else if (d->type == PARAM_FLOAT)
            lua_pushnumber(L, PARAM_FLOAT_VALUE(p->v[i]));
        else
            lua_pushinteger(L, (lua_Integer)p->v[i]);
        lua_setfield(L, -2, d->name);
    }
}

static void push_timing(lua_State *L, const struct result *r)
{
    const struct timing *t = &r->timing;
    SET_NUMBER("time_ms", t->median_ms);
    SET_NUMBER("time_min_ms", t->min_ms);
    SET_NUMBER("time_max_ms", t->max_ms);
    SET_NUMBER("time_iqr", t->iqr_relative);
    double bandwidth = r->useful_bytes / (t->median_ms * 1e-3) / 1e9;
    SET_NUMBER("bandwidth_gbs", bandwidth);
    SET_NUMBER("peak_fraction", bandwidth / session.device.peak_gbs);
    if (session.device.copy_gbs > 0)
        SET_NUMBER("copy_fraction", bandwidth / session.device.copy_gbs);
    if (r->sm_clock_mhz > 0)
        SET_NUMBER("sm_clock_mhz", r->sm_clock_mhz);
    lua_createtable(L, t->sample_count, 0);
    for (int i = 0; i < t->sample_count; i++) {
        lua_pushnumber(L, t->samples_ms[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "samples");
}

/* load and store: the hardware's requests and sectors when from_hardware, else the model's. */
static void push_load_store(lua_State *L, const struct result *r, int from_hardware)
{
    const double *c = r->counters.value;
    struct traffic load = r->model.load, store = r->model.store;
    int load_measured = from_hardware && hardware_has(r, COUNTER_LOAD_REQUESTS, COUNTER_LOAD_SECTORS);
    int store_measured = from_hardware && hardware_has(r, COUNTER_STORE_REQUESTS, COUNTER_STORE_SECTORS);
    if (load_measured)
        load = measured_traffic(&r->model.load, c[COUNTER_LOAD_REQUESTS], c[COUNTER_LOAD_SECTORS]);
    if (store_measured)
        store = measured_traffic(&r->model.store, c[COUNTER_STORE_REQUESTS], c[COUNTER_STORE_SECTORS]);
    push_traffic(L, &load, load_measured ? "hardware" : "model");
    lua_setfield(L, -2, "load");
    push_traffic(L, &store, store_measured ? "hardware" : "model");
    lua_setfield(L, -2, "store");
}

/* One kind of atomics: requests and sectors from the hardware when its
   counters were read (requests and sectors both given), the rest the model's:
   operations, the most lanes of a request on one address, and over the
   launch the busiest address and how many addresses. Absent when neither
   the model nor the hardware saw any. */
static void push_atomic(lua_State *L, const struct atomic_traffic *t, const struct result *r, int from_hardware,
                        enum counter_id requests, enum counter_id sectors, const char *field)
{
    int measured = from_hardware && hardware_has(r, requests, sectors);
    double hardware_requests = measured ? r->counters.value[requests] : 0;
    if (t->requests == 0 && hardware_requests <= 0)
        return;
    uint64_t shown_requests = measured ? (uint64_t)hardware_requests : t->requests;
    uint64_t shown_sectors = measured ? (uint64_t)r->counters.value[sectors] : t->sectors;
    lua_createtable(L, 0, 11);
    SET_INTEGER("requests", shown_requests);
    SET_INTEGER("sectors", shown_sectors);
    SET_NUMBER("sectors_per_request", per_request(shown_sectors, shown_requests));
    SET_INTEGER("operations", t->operations);
    SET_INTEGER("same_address_lanes", t->same_address_lanes);
    SET_NUMBER("same_address_per_request", t->requests ? (double)t->same_address_lanes / (double)t->requests : 0.0);
    SET_INTEGER("hottest_operations", t->hottest_operations);
    SET_INTEGER("hottest_sector_requests", t->hottest_sector_requests);
    SET_INTEGER("addresses", t->addresses);
    lua_pushboolean(L, t->at_least);
    lua_setfield(L, -2, "hottest_at_least");
    SET_INTEGER("model_requests", t->requests);
    SET_INTEGER("model_sectors", t->sectors);
    SET_STRING("source", measured ? "hardware" : "model");
    lua_setfield(L, -2, field);
}

/* atomic, reduction, shared_atomic and ldgsts (cp.async), each when there are any. */
static void push_atomics(lua_State *L, const struct result *r, int from_hardware)
{
    push_atomic(L, &r->model.atomic, r, from_hardware, COUNTER_ATOMIC_REQUESTS, COUNTER_ATOMIC_SECTORS, "atomic");
    push_atomic(L, &r->model.reduction, r, from_hardware, COUNTER_REDUCTION_REQUESTS, COUNTER_REDUCTION_SECTORS,
                "reduction");
    if (r->model.shared_atomic.requests) {   /* no hardware counter is read for these */
        lua_createtable(L, 0, 5);
        SET_INTEGER("requests", r->model.shared_atomic.requests);
        SET_INTEGER("operations", r->model.shared_atomic.operations);
        SET_INTEGER("same_address_lanes", r->model.shared_atomic.same_address_lanes);
        SET_NUMBER("same_address_per_request",
                   (double)r->model.shared_atomic.same_address_lanes / (double)r->model.shared_atomic.requests);
        SET_STRING("source", "model");
        lua_setfield(L, -2, "shared_atomic");
    }
    int measured = from_hardware && hardware_has(r, COUNTER_LDGSTS_REQUESTS, COUNTER_LDGSTS_SECTORS);
    const double *c = r->counters.value;
    if (r->model.ldgsts.requests == 0 && !(measured && c[COUNTER_LDGSTS_REQUESTS] > 0))
        return;
    struct traffic ldgsts = measured ? measured_traffic(&r->model.ldgsts, c[COUNTER_LDGSTS_REQUESTS], c[COUNTER_LDGSTS_SECTORS])
                                     : r->model.ldgsts;
    push_traffic(L, &ldgsts, measured ? "hardware" : "model");
    lua_setfield(L, -2, "ldgsts");
}

/* tolerance: the output values float atomic adds summed, which the check
   compared within their rounding in any order (kernels/model/atomic_sums.h). */
static void push_tolerance(lua_State *L, const struct sum_tolerance *summed)
{
    lua_createtable(L, 0, 3);
    SET_INTEGER("values", summed->values);
    SET_INTEGER("most_terms", summed->most_terms);
    SET_NUMBER("widest", summed->widest);
    lua_setfield(L, -2, "tolerance");
}

/* dram: bytes that crossed DRAM, from the hardware when its counters were read, else the model's estimate. */
static void push_dram(lua_State *L, const struct result *r, int from_hardware)
{
    const struct dram_estimate *d = &r->model.dram;
    lua_createtable(L, 0, 5);
    if (from_hardware && hardware_has(r, COUNTER_DRAM_READ_BYTES, COUNTER_DRAM_WRITE_BYTES)) {
        SET_NUMBER("read_bytes", r->counters.value[COUNTER_DRAM_READ_BYTES]);
        SET_NUMBER("write_bytes", r->counters.value[COUNTER_DRAM_WRITE_BYTES]);
        SET_STRING("source", "hardware");
    } else if (d->estimated) {
        SET_INTEGER("read_bytes", d->read_bytes);
        SET_INTEGER("write_bytes", d->write_bytes);
        SET_INTEGER("write_allocate_bytes", d->write_allocate_bytes);
        SET_INTEGER("read_lines", d->read_lines);
        SET_INTEGER("reread_bytes", d->reread_bytes);
        SET_STRING("source", "model");
        SET_STRING("write_note", SAY("an upper bound: output still in L2 when the kernel ends is written back later", "上限值：核函数结束时仍在 L2 中的输出稍后才写回"));
    } else {
        SET_STRING("source", "model");
        SET_STRING("note", SAY("the buffers are too large for the model to track each block", "缓冲区太大，访问模型无法逐个跟踪每个线程块"));
    }
}

/* The model's time for the profile's device: time_ms, bandwidth_gbs, what limits it. */
static void push_estimate(lua_State *L, const struct result *r)
{
    if (!r->profile)
        return;
    const struct time_estimate *e = &r->estimate;
    const struct time_term_decl *limit = &time_terms[e->limit];
    SET_NUMBER("time_ms", e->time_ms);
    SET_NUMBER("bandwidth_gbs", r->useful_bytes / (e->time_ms * 1e-3) / 1e9);
    SET_STRING("limit", limit->limit);
    SET_STRING("limit_key", limit->key);
    SET_STRING("limit_zh", limit->limit_zh);
    SET_INTEGER("resident_warps", e->resident_warps);
    if (e->registers > 0)
        SET_INTEGER("registers", e->registers);
    SET_NUMBER("warps", e->warps);
    SET_NUMBER("waves", e->waves);
    SET_INTEGER("instructions", r->model.instructions);
    lua_createtable(L, 0, TERM_COUNT);
    for (int t = 0; t < TERM_COUNT; t++)
        SET_NUMBER(time_terms[t].key, e->term_ms[t]);
    lua_setfield(L, -2, "terms");
    SET_STRING("profile", r->profile->key);
    SET_STRING("device", r->profile->info.name);
}

/* shared_load / shared_store: wavefronts and bank conflicts, the hardware's when
   counters were read. Conflicts are the wavefronts beyond the instructions' ideal:
   the l1tex conflict counter also counts passes lost to other L1 traffic. */
static void push_shared(lua_State *L, const struct shared_traffic *t, const struct result *r,
                        enum counter_id wavefronts, const char *field)
{
    int measured = hardware_has(r, wavefronts, wavefronts);
    if (t->requests == 0 && !(measured && r->counters.value[wavefronts] > 0))
        return;
    lua_createtable(L, 0, 6);
    SET_INTEGER("requests", t->requests);
    SET_INTEGER("ideal_wavefronts", t->ideal_wavefronts);
    if (measured) {
        SET_NUMBER("wavefronts", r->counters.value[wavefronts]);
        SET_NUMBER("bank_conflicts", r->counters.value[wavefronts] - (double)t->ideal_wavefronts);
        SET_STRING("source", "hardware");
    } else {
        SET_INTEGER("wavefronts", t->wavefronts);
        SET_INTEGER("bank_conflicts", t->wavefronts - t->ideal_wavefronts);
        SET_STRING("source", "model");
    }
    SET_INTEGER("model_wavefronts", t->wavefronts);
    lua_setfield(L, -2, field);
}

/* counters.NAME of a counter this GPU lacks: one line saying so, where a
   plain nil would only say "attempt to index a nil value". The first upvalue
   is counters_missing; the registry's MISSING_COUNTER_KEY keeps the reason,
   so that a lab's claim that needed the counter is skipped, not failed. */
static int missing_counter(lua_State *L)
{
    if (lua_type(L, 2) != LUA_TSTRING || lua_getfield(L, lua_upvalueindex(1), lua_tostring(L, 2)) != LUA_TSTRING)
        return 0;
    lua_pushfstring(L, SAY("counters.%s is not read on this GPU: %s", "这块 GPU 上读不到 counters.%s：%s"),
                    lua_tostring(L, 2), lua_tostring(L, -1));
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, MISSING_COUNTER_KEY);
    return lua_error(L);
}

/* counters: each hardware value with the metric name it was read under;
   counters_missing: why each counter the GPU did not give is missing. */
static void push_counters(lua_State *L, const struct result *r)
{
    char why[128];
    lua_createtable(L, 0, COUNTER_COUNT);
    lua_newtable(L);
    int missing = 0;
    for (int i = 0; i < COUNTER_COUNT; i++) {
        if (!counter_was_read(&r->counters, i)) {
            lua_pushstring(L, missing_reason(&r->counters, i, why, sizeof why));
            lua_setfield(L, -2, counter_table[i].field);
            missing++;
            continue;
        }
        lua_createtable(L, 0, 2);
        SET_NUMBER("value", r->counters.value[i]);
        SET_STRING("metric", counter_metric_read(&r->counters, i));
        lua_setfield(L, -3, counter_table[i].field);
    }
    if (missing) {
        lua_createtable(L, 0, 1);
        lua_pushvalue(L, -2);
        lua_pushcclosure(L, missing_counter, 1);
        lua_setfield(L, -2, "__index");
        lua_setmetatable(L, -3);
        lua_setfield(L, -3, "counters_missing");
    } else {
        lua_pop(L, 1);
    }
    lua_setfield(L, -2, "counters");
}

void result_push(lua_State *L, const struct result *r)
{
    lua_createtable(L, 0, 20);
    SET_STRING("kernel", r->family->name);
    result_push_params(L, r->family, &r->params);
    lua_setfield(L, -2, "params");
    SET_STRING("backend", r->backend);
    SET_INTEGER("useful_bytes", r->useful_bytes);
    SET_INTEGER("footprint_bytes", r->footprint_bytes);
    SET_NUMBER("wall_ms", r->wall_ms);
    if (r->cache)
        SET_STRING("cache", r->cache);   /* the launch's setting, on either backend */
    if (r->measured)
        push_timing(L, r);
    push_load_store(L, r, r->have_counters);
    push_atomics(L, r, r->have_counters);
    push_shared(L, &r->model.shared_load, r, COUNTER_SHARED_LOAD_WAVEFRONTS, "shared_load");
    push_shared(L, &r->model.shared_store, r, COUNTER_SHARED_STORE_WAVEFRONTS, "shared_store");
    if (r->model.constant.requests) {
        lua_createtable(L, 0, 3);
        SET_INTEGER("requests", r->model.constant.requests);
        SET_INTEGER("passes", r->model.constant.passes);
        SET_STRING("source", "model");
        lua_setfield(L, -2, "constant");
    }
    push_dram(L, r, r->have_counters);
    lua_setfield(L, -2, "dram");
    lua_createtable(L, 0, 3);
    push_load_store(L, r, 0);
    push_atomics(L, r, 0);
    push_dram(L, r, 0);
    lua_setfield(L, -2, "dram");
    push_estimate(L, r);
    SET_STRING("source", r->model_source ? r->model_source : "formula");
    if (r->model_level) {
        SET_STRING("level", r->model_level);
        if (strcmp(r->model_level, "ptx") == 0)
            SET_STRING("level_why", r->model_level_why);
    }
    lua_setfield(L, -2, "model");
    if (r->correct >= 0) {
        lua_pushboolean(L, r->correct);
        lua_setfield(L, -2, "correct");
    }
    if (r->correct == 0)
        SET_STRING("mismatch", r->mismatch);
    if (r->output_elements > 0) {
        SET_INTEGER("checked_elements", r->checked_elements);
        SET_INTEGER("output_elements", r->output_elements);
    }
    if (r->unchecked[0])
        SET_STRING("unchecked", r->unchecked);
    if (r->summed.values > 0)
        push_tolerance(L, &r->summed);
    if (r->have_counters)
        push_counters(L, r);
    if (r->counters_unavailable[0])
        SET_STRING("counters_unavailable", r->counters_unavailable);
    if (r->printed[0]) {
        lua_pushstring(L, r->printed);
        lua_setfield(L, -2, "printf");
    }
    if (r->printed_not_shown) {
        lua_pushinteger(L, (lua_Integer)r->printed_not_shown);
        lua_setfield(L, -2, "printf_not_shown");
    }
    lua_createtable(L, r->warning_count, 0);
    for (int i = 0; i < r->warning_count; i++) {
        lua_pushstring(L, r->warnings[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "warnings");
    luaL_setmetatable(L, RESULT_METATABLE);
}
