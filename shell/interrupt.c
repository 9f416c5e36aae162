/*
** interrupt.c — SIGINT handling that never touches the Lua state itself.
*/
#include <unistd.h>
#include <lauxlib.h>
#include "interrupt.h"
#include "sandbox.h"

volatile sig_atomic_t interrupt_requested = 0;
static lua_State *interrupted_state;

/* Runs inside Lua at the next instruction after Ctrl-C. Lab code cannot
   catch it: the sandbox then raises it again at each of its instructions. */
static void stop_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    if (sandbox_active())
        sandbox_trip(L, "interrupted!");
    else
        lua_sethook(L, NULL, 0, 0);
    interrupt_requested = 0;
    luaL_error(L, "interrupted!");
}

static void on_sigint(int signal_number)
{
    (void)signal_number;
    interrupt_requested = 1;
    lua_sethook(interrupted_state, stop_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

void interrupt_install(lua_State *L)
{
    struct sigaction action = { 0 };
    interrupted_state = L;
    action.sa_handler = on_sigint;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;   /* no SA_RESTART: a waiting select() returns EINTR */
    sigaction(SIGINT, &action, NULL);
}

/* After lab code was interrupted: the code that called it stops too, with
   the same message (no position: that code is warplab's own). */
static void stop_again_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    lua_sethook(L, NULL, 0, 0);
    interrupt_requested = 0;
    lua_pushliteral(L, "interrupted!");
    lua_error(L);
}

void interrupt_raise_again(lua_State *L)
{
    interrupt_requested = 1;
    lua_sethook(L, stop_again_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

void interrupt_clear(lua_State *L)
{
    if (sandbox_active() && interrupt_requested)
        sandbox_trip(L, "interrupted!");   /* C code took the Ctrl-C: lab code still ends */
    else if (!sandbox_active())
        lua_sethook(L, NULL, 0, 0);
    interrupt_requested = 0;
}

int start_worker(pthread_t *thread, void *(*run)(void *), void *argument)
{
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &previous);   /* the new thread inherits this mask */
    int status = pthread_create(thread, NULL, run, argument);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    return status;
}

struct part_call {
    void (*work)(void *argument, int part, int parts);
    void *argument;
    int part, parts;
    pthread_t thread;
};

static void *run_part(void *argument)
{
    struct part_call *call = argument;
    call->work(call->argument, call->part, call->parts);
    return NULL;
}

void run_in_parts(int parts, void (*work)(void *argument, int part, int parts), void *argument)
{
    struct part_call calls[MAX_PARTS];
    int started = 0;
    parts = parts < 1 ? 1 : parts > MAX_PARTS ? MAX_PARTS : parts;
    for (int k = 0; k < parts; k++)
        calls[k] = (struct part_call){ work, argument, k, parts, 0 };
    while (started < parts - 1 && start_worker(&calls[started].thread, run_part, &calls[started]) == 0)
        started++;
    for (int k = started; k < parts; k++)
        run_part(&calls[k]);
    for (int k = 0; k < started; k++)
        pthread_join(calls[k].thread, NULL);
}

int host_threads(void)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online < 1 ? 1 : online > 8 ? 8 : (int)online;
}
