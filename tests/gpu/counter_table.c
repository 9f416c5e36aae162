/*
** unit_counters.c — which counters each GPU chip gives, without a GPU:
** CUPTI's host API knows every chip it supports, so the names warplab reads
** are checked against the T4's, the A100's, the RTX 50 series', the
** integrated chips' and the rest. Then a shell whose backend gives what a
** chip gives (the model's counts as "hardware" values, the chip's missing
** counters missing): a launch keeps the counters it has, says which it lacks
** and why, its DRAM line falls back to the model, and a lab's claim that
** reads a missing counter is skipped with the reason, not failed.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lua.h>
#include "backend/backend.h"
#include "backend/counters.h"
#include "repl/repl.h"
#include "api/session.h"
#include "../lib/tap_session.h"

#if defined(HAVE_CUDA) && defined(HAVE_CUPTI_RANGE_PROFILER)
/* What each chip gives: the DRAM byte counts by their usual name (dram 1),
   by their other name (2) or not at all (0); LDGSTS's (cp.async's) counters
   (ldgsts 1) or not (0: CUPTI 13.0 names none before GH100); every other
   counter by its name. */
static const struct {
    const char *chip, *gpus;
    int dram, ldgsts;
} chips[] = {
    { "TU104", "T4, RTX 2080", 1, 0 },    { "GA100", "A100", 1, 0 },          { "GA102", "RTX 3080, 3090", 1, 0 },
    { "AD102", "RTX 4090", 1, 0 },        { "AD104", "RTX 4070, L4", 1, 0 }, { "GH100", "H100, H200", 1, 1 },
    { "GB100", "B200", 1, 1 },            { "GB202", "RTX 5090", 2, 1 },      { "GB203", "RTX 5080", 2, 1 },
    { "GB207", "RTX 5050", 2, 1 },        { "GA10B", "Jetson Orin", 0, 0 },   { "GB20B", "Jetson Thor", 0, 1 },
};

static int expected_state(int dram, int ldgsts, int counter)
{
    if (counter == COUNTER_LDGSTS_REQUESTS || counter == COUNTER_LDGSTS_SECTORS)
        return ldgsts ? COUNTER_READ : COUNTER_NOT_ON_CHIP;
    if (counter != COUNTER_DRAM_READ_BYTES && counter != COUNTER_DRAM_WRITE_BYTES)
        return COUNTER_READ;
    return dram == 1 ? COUNTER_READ : dram == 2 ? COUNTER_READ_AS_OTHER : COUNTER_NOT_ON_CHIP;
}

static void check_chips(void)
{
    char why[256], name[160];
    unsigned char states[COUNTER_COUNT];
    for (size_t c = 0; c < sizeof chips / sizeof chips[0]; c++) {
        int wrong = counters_for_chip(chips[c].chip, states, why, sizeof why) != 0;
        for (int i = 0; i < COUNTER_COUNT && !wrong; i++)
            wrong = states[i] != expected_state(chips[c].dram, chips[c].ldgsts, i);
        snprintf(name, sizeof name, "%s (%s): %s%s", chips[c].chip, chips[c].gpus,
                 chips[c].dram == 1 ? "DRAM bytes by their names"
                 : chips[c].dram == 2 ? "DRAM bytes as dram__bytes_op_read/_op_write"
                                      : "no DRAM counters",
                 chips[c].ldgsts ? ", ldgsts (cp.async) counters, the rest by their names"
                                 : ", no ldgsts (cp.async) counters, the rest by their names");
        ok(!wrong, name);
    }
    ok(counters_for_chip("XX999", states, why, sizeof why) == -1 && why[0], "a chip CUPTI does not know is an error with a reason");
}

/* The backend: the model's runs, and "counters" as the chip gives them. */
static unsigned char chip_states[COUNTER_COUNT];
static char chip_name[16];

static void chip_counters(struct result *const *results, int count)
{
    for (int k = 0; k < count; k++) {
        struct result *r = results[k];
        const double model[COUNTER_COUNT] = {
            [COUNTER_LOAD_REQUESTS] = (double)r->model.load.requests, [COUNTER_LOAD_SECTORS] = (double)r->model.load.sectors,
            [COUNTER_STORE_REQUESTS] = (double)r->model.store.requests, [COUNTER_STORE_SECTORS] = (double)r->model.store.sectors,
            [COUNTER_DRAM_READ_BYTES] = 123456, [COUNTER_DRAM_WRITE_BYTES] = 654321, [COUNTER_L1_HIT_RATE] = 12.5,
        };
        r->have_counters = 1;
        for (int i = 0; i < COUNTER_COUNT; i++) {
            r->counters.state[i] = chip_states[i];
            r->counters.value[i] = counter_was_read(&r->counters, i) ? model[i] : 0;
        }
        snprintf(r->counters.chip, sizeof r->counters.chip, "%s", chip_name);
    }
}

static void run_lua(const char *code)
{
    if (session_run(code, "=unit_counters", 0) != LUA_OK)
        printf("# %s\n", lua_tostring(session.L, -1));
    lua_settop(session.L, 0);
}

/* A lab whose claims read a counter the chip gives and one it does not. */
static const char LAB[] =
    "lab { title = 'counters', topics = { 'counters' } }\n"
    "step { text = 'one launch', run = [[launch('copy', {n = 1 << 16})]],\n"
    "  claims = {\n"
    "    { text = 'load sectors from the counters', holds = function(ctx) return ctx.result.counters.load_sectors.value == ctx.result.model.load.sectors end },\n"
    "    { text = 'DRAM bytes from the counters', holds = function(ctx) return ctx.result.counters.dram_read_bytes.value > 0 end },\n"
    "    { text = 'a claim that is wrong still fails', holds = function(ctx) return ctx.result.load.requests < 0 end },\n"
    "  } }\n";

static void check_shell(const char *chip, const char *lab_path)
{
    char why[256], code[512];
    struct backend chip_backend = model_backend;
    if (counters_for_chip(chip, chip_states, why, sizeof why) != 0) {
        ok(0, why);
        return;
    }
    snprintf(chip_name, sizeof chip_name, "%s", chip);
    repl_open_session(1, 0, NULL);
    chip_backend.read_counters = chip_counters;
    session.backend = &chip_backend;
    run_lua("r = launch('copy', {n = 1 << 16}); card = tostring(r)");
    if (strcmp(chip, "GA10B") == 0) {
        lua_holds("r.load.source == 'hardware' and r.store.source == 'hardware'", "GA10B: loads and stores from the hardware");
        lua_holds("r.counters.l1_hit_rate.value == 12.5", "... the counters it has are kept");
        lua_holds("r.dram.source == 'model' and r.dram.read_bytes == r.model.dram.read_bytes", "... DRAM from the model, since the chip has no DRAM counter");
        lua_holds("r.counters_missing.dram_read_bytes == 'the GA10B chip has no such counter' and r.counters_missing.dram_write_bytes ~= nil",
                  "... counters_missing says which are missing and why");
        lua_holds("select(2, pcall(function() return r.counters.dram_read_bytes.value end)):find("
                  "'counters.dram_read_bytes is not read on this GPU: the GA10B chip has no such counter', 1, true) ~= nil",
                  "... reading one is one clear error naming it, not 'attempt to index a nil value'");
        lua_holds("r.counters.no_such_counter == nil", "... a name that is no counter is nil, as before");
        /* a card's row is wrapped to the terminal: read with its lines joined */
        lua_holds("card:gsub('\\n +', ' '):find('not read on this GPU: dram_read_bytes, dram_write_bytes (the GA10B chip has no such counter)', 1, true) ~= nil",
                  "... the card names them and says why");
        lua_holds("card:find('(modelled, cold L2)', 1, true) ~= nil and card:find('L1 hit 12.5%', 1, true) ~= nil",
                  "... the card's DRAM line is the model's, its caches line the hardware's");
        snprintf(code, sizeof code, "(function() local o = require('warplab.lab_claims').check_claims('%s')"
                 " return o[1].holds == true and o[2].skipped and o[2].reason:find('GA10B', 1, true) and o[3].holds == false"
                 " and not o[3].skipped end)()", lab_path);
        lua_holds(code, "... a lab's claim that reads a missing counter is skipped with the reason; the others are judged");
        run_lua("core_lang = debug.getregistry()['warplab.core'].lang; core_lang('zh'); card_zh = tostring(launch('copy', {n = 1 << 16})); core_lang('en')");
        lua_holds("(card_zh:gsub('\\n +', ' '):find('这块 GPU 上读不到：dram_read_bytes, dram_write_bytes（GA10B 芯片没有这个计数器）', 1, true) or "
                  "card_zh:gsub('\\n +', ''):find('这块 GPU 上读不到：dram_read_bytes, dram_write_bytes（GA10B 芯片没有这个计数器）', 1, true)) ~= nil",
                  "... and in Chinese");
    } else {
        lua_holds("r.dram.source == 'hardware' and r.dram.read_bytes == 123456", "GB202: DRAM from the hardware");
        lua_holds("r.counters.dram_read_bytes.metric == 'dram__bytes_op_read.sum' and r.counters.load_sectors.metric == "
                  "'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum'", "... each counter carries the name it was read under");
        lua_holds("r.counters_missing == nil and not card:find('not read on this GPU', 1, true)", "... and nothing is missing");
    }
    session_close();
}

int main(void)
{
    char why[256], lab_path[] = "/tmp/warplab-unit-counters-XXXXXX.lua";
    unsigned char states[COUNTER_COUNT];
#ifdef __SANITIZE_ADDRESS__
    printf("1..0 # SKIP CUPTI dlopens libnvperf_host.so with RTLD_DEEPBIND, which AddressSanitizer refuses\n");
    return 0;
#endif
    if (counters_for_chip("GH100", states, why, sizeof why) != 0) {
        printf("1..0 # SKIP %s\n", why);
        return 0;
    }
    check_chips();
    int fd = mkstemps(lab_path, 4);
    if (!ok(fd >= 0 && write(fd, LAB, sizeof LAB - 1) == (ssize_t)(sizeof LAB - 1), "the test lab is written"))
        return done();
    close(fd);
    check_shell("GA10B", lab_path);
    check_shell("GB202", lab_path);
    unlink(lab_path);
    return done();
}
#else
int main(void)
{
    printf("1..0 # SKIP built without CUDA or without its Range Profiler: no counters\n");
    return 0;
}
#endif
