/*
** unit_registry.c — a family that joins the registry while the shell runs
** is treated as a built-in: Tab completes its name, info() describes it,
** launch() checks its parameters and runs it, sweep() and export() take its
** results. And the registry refuses a declaration it cannot use, saying why.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lua.h>
#include <readline/readline.h>
#include "api/api.h"
#include "model/common.h"
#include "model/registry.h"
#include "repl/repl.h"
#include "api/session.h"
#include "../lib/tap_session.h"

enum { SCALED_FACTOR = 2 };

static const struct param_decl scaled_params[] = {
    COMMON_PARAMS(1 << 16),
    [SCALED_FACTOR] = { .name = "factor", .type = PARAM_INT, .fallback = 2, .min = 1, .max = 8, ONLY(1, 2, 4, 8),
                        .doc = "what every element is multiplied by", .doc_zh = "每个元素乘以的数" },
};

static const struct buffer_decl scaled_buffers[] = {
    { "in", BUFFER_IN, 4 },
    { "out", BUFFER_OUT, 4 },
};

static int four_bytes(const struct params *p) { return 4; }
static uint64_t scaled_useful_bytes(const struct params *p) { return 8 * (uint64_t)p->v[PARAM_N]; }

static void scaled_reference(const struct params *p, void *const *buffers)
{
    const float *in = buffers[0];
    float *out = buffers[1];
    for (long long i = 0; i < p->v[PARAM_N]; i++)
        out[i] = in[i] * (float)p->v[SCALED_FACTOR];
}

static int scaled_warp_accesses(const struct params *p, const uint64_t *base, long long warp, struct warp_access *acc)
{
    return warp_copy(acc, 4, warp, base, p->v[PARAM_N]);
}

static const struct family family_scaled = {
    .name = "scaled",
    .summary = "out[i] = factor * in[i]",
    .teaches = "a family added while the shell runs",
    .summary_zh = "out[i] = factor * in[i]",
    .teaches_zh = "运行时加入的核函数族",
    .params = scaled_params,
    .param_count = COUNT_OF(scaled_params),
    .buffers = scaled_buffers,
    .buffer_count = COUNT_OF(scaled_buffers),
    .element_bytes = four_bytes,
    .buffer_elements = n_in_n_out,
    .useful_bytes = scaled_useful_bytes,
    .shape = one_thread_per_element,
    .reference = scaled_reference,
    .warp_accesses = scaled_warp_accesses,
    .source = "// out[i] = factor * in[i]\n",
};

/* What Tab offers after `line`, the word being completed starting at `start`. */
static int completes(const char *line, int start, const char *expected)
{
    char **matches;
    int found = 0;
    rl_line_buffer = (char *)line;
    matches = rl_attempted_completion_function(line + start, start, (int)strlen(line));
    for (int i = 0; matches && matches[i]; i++) {
        found = found || strcmp(matches[i], expected) == 0;
        free(matches[i]);
    }
    free(matches);
    return found;
}

static void test_refusals(void)
{
    char why[256];
    struct family copy_again = family_scaled, bad_name = family_scaled, no_model = family_scaled, gap = family_scaled;
    static const struct param_decl with_gap[] = { COMMON_PARAMS(1024), [3] = scaled_params[SCALED_FACTOR] };
    copy_again.name = "copy";
    bad_name.name = "Scaled Up";
    no_model.warp_accesses = NULL;
    gap.params = with_gap;
    gap.param_count = COUNT_OF(with_gap);
    ok(registry_add(&copy_again, why, sizeof why) == -1 && strstr(why, "'copy' exists already"),
       "a name already taken is refused, saying so");
    ok(registry_add(&bad_name, why, sizeof why) == -1 && strstr(why, "lowercase letters"), "a name that is no identifier is refused");
    ok(registry_add(&no_model, why, sizeof why) == -1 && strstr(why, "warp_accesses"), "a family without its model is refused, naming it");
    ok(registry_add(&gap, why, sizeof why) == -1 && strstr(why, "param 3"), "a slot left undeclared is refused, naming it");
    ok(family_find("copy") != &copy_again && !family_find("Scaled Up"), "... and none of them joined");
}

int main(void)
{
    char why[256], code[512], csv[] = "/tmp/warplab-unit-registry-XXXXXX.csv";
    repl_open_session(1, 0, NULL);
    complete_install();
    test_refusals();
    int count = family_count;
    ok(!completes("launch(\"sca", 8, "scaled"), "before: Tab offers no 'scaled'");
    ok(api_add_family(session.L, &family_scaled, why, sizeof why) == 0 && family_count == count + 1, "a family joins the running shell");
    ok(completes("launch(\"sca", 8, "scaled"), "Tab completes launch(\"sca to scaled");
    lua_holds("(function() for _, k in ipairs(kernels()) do if k.name == 'scaled' then return true end end end)()",
              "kernels() lists it");
    lua_holds("info('scaled').params[3].name == 'factor' and table.concat(info('scaled').params[3].choices, ',') == '1,2,4,8'",
              "info() describes its parameters");
    ok(strstr(lua_error_of("launch('scaled', {factor = 3})"), "'factor' must be 1, 2, 4 or 8, got 3") != NULL,
       "launch() checks its parameters as a built-in's");
    ok(strstr(lua_error_of("launch('scaled', {fator = 2})"), "factor") != NULL, "... and suggests the name meant");
    lua_holds("launch('scaled', {factor = 4}).load.sectors_per_request == 4", "launch() runs its model");
    lua_holds("#sweep('scaled', {factor = {1, 2, 4}, n = 4096}) == 3", "sweep() sweeps it");
    int fd = mkstemps(csv, 4);
    close(fd);
    snprintf(code, sizeof code, "export(sweep('scaled', {factor = {1, 2}, n = 4096}), '%s')", csv);
    ok(lua_error_of(code)[0] == 0, "export() writes its results");
    snprintf(code, sizeof code, "io.open('%s'):read('a'):find('scaled', 1, true) ~= nil", csv);
    lua_holds(code, "... naming the kernel");
    unlink(csv);
    ok(api_add_family(session.L, &family_scaled, why, sizeof why) == -1 && strstr(why, "exists already"),
       "it cannot join twice");
    session_close();
    return done();
}
