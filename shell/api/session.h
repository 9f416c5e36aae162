/*
** session.h — the state one warplab process keeps: its Lua state, its
** backend and the device it describes.
*/
#ifndef WARPLAB_SESSION_H
#define WARPLAB_SESSION_H

#include <lua.h>
#include "backend/backend.h"
#include "support/text.h"   /* SAY and text_language: the session's language (--lang, else LANG) */

struct session {
    lua_State *L;
    const struct backend *backend;
    struct device_info device;
    char backend_notice[256];    /* why the model was chosen, or empty */
    struct measure_options options;   /* config{}: the session's way of measuring */
};

struct device_profile;
/* Makes profile the device the model describes: on the sim backend device()
   becomes it too. */
void session_use_profile(const struct device_profile *profile);

extern struct session session;

/* A Lua type name ("nil", "table", "no value"...) as a message in the session's
   language shows it. */
const char *type_text(const char *type);
/* The same for the value at idx (luaL_typename). */
#define TYPE_TEXT(L, idx) type_text(luaL_typename((L), (idx)))

/* Creates the Lua state on the backend the program chose and opened (its
   device, and why the model stands in, or ""), with profile the device the
   model describes, and loads the prelude on the core table that open_core
   pushes: the program above the session says what the backend and the API
   are (repl_open_session). 0 on success. */
int session_open(const struct backend *backend, const struct device_info *device, const char *backend_notice,
                 const struct device_profile *profile, void (*open_core)(lua_State *L));
void session_close(void);
/* Loads code after the shorthand rewrite; pushes the chunk or the error. */
int session_load(const char *code, const char *chunk_name);
/* Calls the function below nargs arguments in protected mode with a short
   traceback and Ctrl-C enabled; leaves the results or the error message. */
int session_call(int nargs, int nresults);
/* session_load, then session_call with no arguments. */
int session_run(const char *code, const char *chunk_name, int nresults);
/* Pushes core.<name>, or core.<table>.<name> when table is not NULL: the
   prelude's function that the shell calls next (and nothing else). */
void session_push_core(const char *table, const char *name);
/* Prints and pops the error message on top of the stack when status is an error:
   "error: ..." on stdout at the prompt, "warplab: ..." on stderr for scripts. */
void session_report(int status, int to_stderr);
/* The error message on top of the stack, in the session's language (Lua's
   own English reworded under zh), in its place. */
void session_translate_error(lua_State *L);

#endif
