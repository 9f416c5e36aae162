/*
** complete.c — Tab completion: where a name is an argument (kernel names
** inside launch(", params and their choices, labs after :lab), what
** lua/complete.lua offers; colon commands; else Lua names: globals and the
** fields of tables reached by a dotted path (string.fo -> string.format).
*/
#include <stdlib.h>
#include <string.h>
#include <readline/readline.h>
#include <lauxlib.h>
#include "api/lua_keys.h"
#include "repl/repl.h"
#include "api/session.h"

enum { MAX_CANDIDATES = 512 };
static char *candidates[MAX_CANDIDATES];
static int candidate_count, candidate_next;

static void add_candidate(const char *prefix, const char *name, size_t name_length)
{
    if (candidate_count == MAX_CANDIDATES)
        return;
    size_t size = strlen(prefix) + name_length + 1;
    char *text = malloc(size);
    memcpy(text, prefix, strlen(prefix));
    memcpy(text + strlen(prefix), name, name_length);
    text[size - 1] = 0;
    candidates[candidate_count++] = text;
}

static char *next_candidate(const char *text, int state)
{
    (void)text;
    (void)state;
    return candidate_next < candidate_count ? candidates[candidate_next++] : NULL;
}

static void reset_candidates(void)
{
    for (int i = candidate_next; i < candidate_count; i++)
        free(candidates[i]);   /* readline freed the ones it took */
    candidate_count = candidate_next = 0;
}

/* What lua/complete.lua offers for the word at start (kernel names in
   launch(", params inside its {, choices, labs after :lab ...): 1 when it
   knew the place, with the names added; 0 when Lua's own names fit there. */
static int collect_from_lua(const char *text, int start)
{
    lua_State *L = session.L;
    int top = lua_gettop(L), known = 0;
    lua_getfield(L, LUA_REGISTRYINDEX, CORE_REGISTRY_KEY);
    lua_getfield(L, -1, "complete");
    lua_pushstring(L, rl_line_buffer);
    lua_pushinteger(L, start);
    lua_pushstring(L, text);
    if (lua_pcall(L, 3, 1, 0) == LUA_OK && lua_istable(L, -1)) {
        known = 1;
        for (lua_Integer i = 1; lua_rawgeti(L, -1, i) == LUA_TSTRING; i++) {
            size_t length;
            const char *name = lua_tolstring(L, -1, &length);
            add_candidate("", name, length);
            lua_pop(L, 1);
        }
    }
    lua_settop(L, top);
    return known;
}

static void collect_commands(const char *text)
{
    const char *name;
    for (int i = 0; (name = command_name(i)); i++)
        if (strncmp(name, text, strlen(text)) == 0)
            add_candidate("", name, strlen(name));
}

/* Pushes the table a dotted path like "string." or "a.b:" leads to, or nil. */
static void push_path_table(lua_State *L, const char *path, size_t length)
{
    lua_pushglobaltable(L);
    size_t at = 0;
    while (at < length && lua_istable(L, -1)) {
        size_t part = strcspn(path + at, ".:");
        lua_pushlstring(L, path + at, part);
        lua_gettable(L, -2);
        lua_remove(L, -2);
        at += part + 1;
    }
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        lua_pushnil(L);
    }
}

static void collect_lua_names(const char *text)
{
    lua_State *L = session.L;
    const char *separator = strrchr(text, '.');
    const char *colon = strrchr(text, ':');
    if (colon > separator)
        separator = colon;
    size_t path_length = separator ? (size_t)(separator - text + 1) : 0;
    const char *partial = text + path_length;
    char prefix[512];
    snprintf(prefix, sizeof prefix, "%.*s", (int)path_length, text);
    if (path_length)
        push_path_table(L, text, path_length - 1);
    else
        lua_pushglobaltable(L);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return;
    }
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        size_t length;
        if (lua_type(L, -2) == LUA_TSTRING) {
            const char *key = lua_tolstring(L, -2, &length);
            if (strncmp(key, partial, strlen(partial)) == 0 && key[0] != '_')
                add_candidate(prefix, key, length);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

static char **complete(const char *text, int start, int end)
{
    (void)end;
    rl_attempted_completion_over = 1;   /* never fall back to file names */
    rl_completion_append_character = '\0';
    reset_candidates();
    if (collect_from_lua(text, start)) {
        rl_completion_append_character = rl_line_buffer[0] == ':' ? ' ' : '\0';
    } else if (start == 0 && text[0] == ':') {
        collect_commands(text);
        rl_completion_append_character = ' ';
    } else {
        collect_lua_names(text);
    }
    return rl_completion_matches(text, next_candidate);
}

void complete_install(void)
{
    rl_attempted_completion_function = complete;
    rl_basic_word_break_characters = " \t\n\"'`@$><=;|&{(,+-*/%^~#[]";
    rl_completer_quote_characters = "";
}
