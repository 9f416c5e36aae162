/*
** session.c — the Lua state and everything run in it goes through
** session_run: shorthand rewrite, load, protected call with a traceback.
*/
#include <stdlib.h>
#include <string.h>
#include <lauxlib.h>
#include <lualib.h>
#include "api.h"
#include "interrupt.h"
#include "output.h"
#include "session.h"
#include "shorthand.h"
#include "profiles.h"

extern const char prelude_lua[], sweep_lua[], chart_lua[], export_lua[], plot_lua[], progress_lua[], labs_lua[];

/* The Lua part of warplab, loaded in this order, each called with the core table. */
static const struct {
    const char *name;
    const char *text;
} lua_modules[] = {
    { "=prelude", prelude_lua },
    { "=chart", chart_lua },
    { "=export", export_lua },
    { "=plot", plot_lua },
    { "=sweep", sweep_lua },
    { "=progress", progress_lua },
    { "=labs", labs_lua },
};

struct session session;

/* Keeps the traceback lines that point into Lua code the user wrote:
   C frames and the chunk's own frame say nothing new. At most five. */
static void push_short_traceback(lua_State *L, const char *message)
{
    luaL_Buffer b;
    int kept = 0;
    luaL_traceback(L, L, NULL, 2);
    const char *line = lua_tostring(L, -1);
    luaL_buffinit(L, &b);
    luaL_addstring(&b, message);
    while (line && (line = strchr(line, '\n')) != NULL) {
        const char *start = ++line, *end = strchr(start, '\n');
        size_t length = end ? (size_t)(end - start) : strlen(start);
        int useful = memmem(start, length, "[C]", 3) == NULL &&
                     memmem(start, length, "in main chunk", 13) == NULL &&
                     memmem(start, length, "(...tail calls...)", 18) == NULL &&
                     memmem(start, length, "prelude", 7) == NULL;
        if (useful && kept++ < 5) {
            luaL_addstring(&b, kept == 1 ? "\n  traceback:\n  " : "\n  ");
            luaL_addlstring(&b, start, length);
        }
    }
    luaL_pushresult(&b);
    lua_remove(L, -2);
}

/* Message handler: the error text plus a short traceback. */
static int message_handler(lua_State *L)
{
    const char *message = lua_tostring(L, 1);
    if (message == NULL) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
            return 1;
        message = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    push_short_traceback(L, message);
    return 1;
}

/* Calls the function below its nargs arguments, protected, Ctrl-C enabled. */
static int protected_call(lua_State *L, int nargs, int nresults)
{
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, message_handler);
    lua_insert(L, base);
    int status = lua_pcall(L, nargs, nresults, base);
    lua_remove(L, base);
    interrupt_clear(L);
    return status;
}

int session_load(const char *code, const char *chunk_name)
{
    char *expanded = shorthand_expand(code);
    if (!expanded) {
        lua_pushliteral(session.L, "out of memory");
        return LUA_ERRMEM;
    }
    int status = luaL_loadbuffer(session.L, expanded, strlen(expanded), chunk_name);
    free(expanded);
    return status;
}

int session_call(int nargs, int nresults)
{
    return protected_call(session.L, nargs, nresults);
}

int session_run(const char *code, const char *chunk_name, int nresults)
{
    int status = session_load(code, chunk_name);
    return status == LUA_OK ? session_call(0, nresults) : status;
}

void session_push_core(const char *table, const char *name)
{
    lua_State *L = session.L;
    lua_getfield(L, LUA_REGISTRYINDEX, CORE_REGISTRY_KEY);
    if (table) {
        lua_getfield(L, -1, table);
        lua_remove(L, -2);
    }
    lua_getfield(L, -1, name);
    lua_remove(L, -2);
}

void session_report(int status, int to_stderr)
{
    if (status == LUA_OK)
        return;
    const char *message = lua_tostring(session.L, -1);
    if (!message)
        message = "(error object is not a string)";
    if (to_stderr)
        notice("%s", message);
    else
        out_printf("error: %s\n", message);
    lua_pop(session.L, 1);
}

/* Loads the embedded Lua modules, each called with the core table. */
static int load_prelude(lua_State *L)
{
    api_open(L);   /* leaves the core table on the stack */
    for (size_t i = 0; i < sizeof lua_modules / sizeof lua_modules[0]; i++) {
        const char *name = lua_modules[i].name;
        if (luaL_loadbuffer(L, lua_modules[i].text, strlen(lua_modules[i].text), name) != LUA_OK) {
            notice("the built-in %s module does not load: %s", name + 1, lua_tostring(L, -1));
            return -1;
        }
        lua_pushvalue(L, -2);
        if (protected_call(L, 1, 0) != LUA_OK) {
            notice("the built-in %s module failed: %s", name + 1, lua_tostring(L, -1));
            return -1;
        }
    }
    lua_pop(L, 1);
    return 0;
}

void session_use_profile(const struct device_profile *profile)
{
    session.options.profile = profile;
    if (!session.backend->measure_copy) {   /* the model stands in for the device */
        int ordinal = session.device.ordinal;
        session.device = profile->info;
        session.device.ordinal = ordinal;
    }
}

int session_open(int force_sim, int ordinal, const struct device_profile *profile)
{
    session.L = luaL_newstate();
    if (!session.L) {
        notice("cannot create the Lua state: out of memory");
        return -1;
    }
    luaL_openlibs(session.L);
    session.options = (struct measure_options){ .warm = 0, .min_samples = 10, .budget_ms = 500, .check = 1, .counters = 1 };
    session.backend = backend_choose(force_sim, ordinal, &session.device,
                                     session.backend_notice, sizeof session.backend_notice);
    session_use_profile(profile ? profile : session.backend->measure_copy
                                              ? profile_for_device(&session.device) : &device_profiles[0]);
    interrupt_install(session.L);
    return load_prelude(session.L);
}

void session_close(void)
{
    if (session.backend)
        session.backend->close();
    if (session.L)
        lua_close(session.L);
    memset(&session, 0, sizeof session);
}
