/*
** labs.c — what the lab runner (lua/labs.lua) needs from C: the labs built
** into the binary, where progress is kept, the terminal's width, the last
** launch result, loading an experiment as the prompt would (in the lab's
** sandbox), and running a student's code as the prompt would.
*/
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <lauxlib.h>
#include "api/labs.h"
#include "api/lua_keys.h"
#include "output.h"
#include "paths.h"
#include "model/registry.h"
#include "api/session.h"

extern const struct { const char *name; const char *text; } lab_texts[];
extern const int lab_texts_count;

/* core.lab_source(name): a built-in lab's text, or nil. */
static int core_lab_source(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    for (int i = 0; i < lab_texts_count; i++)
        if (strcmp(lab_texts[i].name, name) == 0) {
            lua_pushstring(L, lab_texts[i].text);
            return 1;
        }
    lua_pushnil(L);
    return 1;
}

/* core.lab_names(): the built-in labs, in order. */
static int core_lab_names(lua_State *L)
{
    lua_createtable(L, lab_texts_count, 0);
    for (int i = 0; i < lab_texts_count; i++) {
        lua_pushstring(L, lab_texts[i].name);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* Pushes $variable/warplab/name (the folders made), or nil without a home. */
static int push_xdg_file(lua_State *L, const char *variable, const char *fallback, const char *name)
{
    char path[4096];
    if (xdg_file(variable, fallback, name, path, sizeof path) != 0)
        lua_pushnil(L);
    else
        lua_pushstring(L, path);
    return 1;
}

/* core.data_path(name): $XDG_DATA_HOME/warplab/name (folders made), or nil without a home. */
static int core_data_path(lua_State *L)
{
    return push_xdg_file(L, "XDG_DATA_HOME", ".local/share", luaL_checkstring(L, 1));
}

/* core.journal_path(): where this session's record goes as it is kept:
   $XDG_STATE_HOME/warplab/session-<UTC time>-<pid>.jsonl, or nil without a home. */
static int core_journal_path(lua_State *L)
{
    char name[96], stamp[32];
    time_t now = time(NULL);
    strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", gmtime(&now));
    snprintf(name, sizeof name, "session-%s-%ld.jsonl", stamp, (long)getpid());
    return push_xdg_file(L, "XDG_STATE_HOME", ".local/state", name);
}

/* core.columns(): $COLUMNS when it is set (as POSIX has it override the
   terminal's), else the terminal's width, else 80 (a file, a pipe). */
static int core_columns(lua_State *L)
{
    int width = out_columns(STDOUT_FILENO);
    lua_pushinteger(L, width > 0 ? width : 80);
    return 1;
}

/* core.last_result(): the result of the latest launch, or nil. */
static int core_last_result(lua_State *L)
{
    lua_getfield(L, LUA_REGISTRYINDEX, LAST_RESULT_KEY);
    return 1;
}

/* core.last_results(): the results of the latest list of launches (a sweep), or nil. */
static int core_last_results(lua_State *L)
{
    lua_getfield(L, LUA_REGISTRYINDEX, LAST_RESULTS_KEY);
    return 1;
}

/* core.set_last_results(result, results): puts back what core.last_result()
   and core.last_results() return (after lab code that launched for itself). */
static int core_set_last_results(lua_State *L)
{
    lua_settop(L, 2);
    lua_setfield(L, LUA_REGISTRYINDEX, LAST_RESULTS_KEY);
    lua_setfield(L, LUA_REGISTRYINDEX, LAST_RESULT_KEY);
    return 0;
}

/* core.take_missing_counter(): the last "counters.NAME is not read on this
   GPU" error raised since the previous call, or nil; clears it. */
static int core_take_missing_counter(lua_State *L)
{
    lua_getfield(L, LUA_REGISTRYINDEX, MISSING_COUNTER_KEY);
    lua_pushnil(L);
    lua_setfield(L, LUA_REGISTRYINDEX, MISSING_COUNTER_KEY);
    return 1;
}

/* core.edit_distance(a, b): the edits from one name to the other, for "did you mean". */
static int core_edit_distance(lua_State *L)
{
    lua_pushinteger(L, edit_distance(luaL_checkstring(L, 1), luaL_checkstring(L, 2)));
    return 1;
}

/* core.translate_error(message): as the prompt would show it, in the session's language. */
static int core_translate_error(lua_State *L)
{
    luaL_checkstring(L, 1);
    lua_settop(L, 1);
    session_translate_error(L);
    return 1;
}

static const luaL_Reg lab_functions[] = {
    { "translate_error", core_translate_error },
    { "edit_distance", core_edit_distance },
    { "journal_path", core_journal_path },
    { "lab_source", core_lab_source },
    { "lab_names", core_lab_names },
    { "data_path", core_data_path },
    { "columns", core_columns },
    { "last_result", core_last_result },
    { "last_results", core_last_results },
    { "set_last_results", core_set_last_results },
    { "take_missing_counter", core_take_missing_counter },
    { NULL, NULL },
};

void labs_open(lua_State *L)
{
    luaL_setfuncs(L, lab_functions, 0);
}
