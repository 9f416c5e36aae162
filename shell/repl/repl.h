/*
** repl.h — the interactive shell: readline prompt, history, completion,
** colon commands.
*/
#ifndef WARPLAB_REPL_H
#define WARPLAB_REPL_H

#include <lua.h>

/* Runs the read-eval-print loop until Ctrl-D or :quit; returns the exit status. */
int repl_run(void);

enum command_outcome { COMMAND_DONE, COMMAND_QUIT };
/* Runs a line that starts with ':'. */
enum command_outcome command_run(const char *line);
/* The name of colon command i, for completion; NULL past the last. */
const char *command_name(int i);
/* core.command(line): a colon command run from Lua. */
int command_lua(lua_State *L);
/* core.commands_text(): every colon command with its usage, one a line. */
int command_list_lua(lua_State *L);
/* Pushes the whole core table: the API's (api_open) and the prompt's
   functions (colon commands, code run as typed, the history). */
void repl_open_core(lua_State *L);
struct device_profile;
/* Opens the session: the backend (the GPU's unless force_sim, or the model
   when there is none), the device the model describes (profile; NULL: the
   GPU's own, or the H200 on the model) and the whole core table. 0 on success. */
int repl_open_session(int force_sim, int ordinal, const struct device_profile *profile);

/* Runs code as if typed at the prompt: expressions print, record() sees it. */
void repl_run_code(const char *code);
/* Loads code as the prompt does (an expression returns its value); pushes
   the function, or the error; returns LUA_OK or the load status. */
int repl_load(const char *code);
/* At the prompt, adds code to the history (not the file), so Up recalls it; else nothing. */
void repl_offer_history(const char *code);

/* Installs warplab's completion into readline. */
void complete_install(void);

#endif
