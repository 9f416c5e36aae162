/*
** tap_session.h — TAP checks of Lua run in the shell's session, for C tests
** that open one (session_open): lua_holds() and lua_error_of().
*/
#ifndef WARPLAB_TAP_SESSION_H
#define WARPLAB_TAP_SESSION_H

#include <stdio.h>
#include <lua.h>
#include "api/session.h"
#include "tap.h"

/* Whether a Lua expression is true in the session; prints what it was when not. */
static __attribute__((unused)) int lua_holds(const char *expression, const char *name)
{
    char code[4096];
    snprintf(code, sizeof code, "return %s", expression);
    int status = session_run(code, "=test", 1);
    int holds = status == LUA_OK && lua_toboolean(session.L, -1);
    if (!ok(holds, name))
        printf("#   %s: %s\n", expression, status == LUA_OK ? "false" : lua_tostring(session.L, -1));
    lua_settop(session.L, 0);
    return holds;
}

/* The error a Lua statement raises, or "" when it raises none. */
static __attribute__((unused)) const char *lua_error_of(const char *code)
{
    static char text[512];
    int status = session_run(code, "=test", 0);
    snprintf(text, sizeof text, "%s", status == LUA_OK ? "" : lua_tostring(session.L, -1));
    lua_settop(session.L, 0);
    return text;
}

#endif
