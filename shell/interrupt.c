/*
** interrupt.c — SIGINT handling that never touches the Lua state itself, and
** deadlines: a call that runs past its CPU or wall time is stopped the same way.
*/
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <lauxlib.h>
#include "interrupt.h"

static lua_State *interrupted_state;
static const struct interrupt_guard *lab_guard;

void interrupt_set_guard(const struct interrupt_guard *guard)
{
    lab_guard = guard;
}

/* Whether lab code runs now (the sandbox's guard says). */
static int lab_code_runs(void)
{
    return lab_guard && lab_guard->active();
}

/* Ends the lab code running now with message: every later instruction of it raises it. */
static void end_lab_code(lua_State *L, const char *message)
{
    lab_guard->trip(L, message);
}

/* Runs inside Lua at the next instruction after Ctrl-C. Lab code cannot
   catch it: the sandbox then raises it again at each of its instructions. */
static void stop_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    if (lab_code_runs())
        end_lab_code(L, "interrupted!");
    else
        lua_sethook(L, NULL, 0, 0);
    interrupt_requested = 0;
    luaL_error(L, "interrupted!");
}

static int deadline_takes_interrupt(void);

static void on_sigint(int signal_number)
{
    (void)signal_number;
    if (deadline_takes_interrupt())
        return;
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

static int deadline_has_passed(void);
static void deadline_stop(lua_State *L);

void interrupt_raise_again(lua_State *L)
{
    if (deadline_has_passed()) {   /* past a deadline: every caller up to core.with_deadline stops */
        deadline_stop(L);
        return;
    }
    interrupt_requested = 1;
    lua_sethook(L, stop_again_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

void interrupt_clear(lua_State *L)
{
    if (deadline_has_passed())
        deadline_stop(L);   /* C code took the stop: the call goes on stopping */
    else if (lab_code_runs() && interrupt_requested)
        end_lab_code(L, "interrupted!");   /* C code took the Ctrl-C: lab code still ends */
    else if (!lab_code_runs())
        lua_sethook(L, NULL, 0, 0);
    interrupt_requested = 0;
}

/*
** Deadlines (core.with_deadline): two POSIX timers, one on the wall clock and
** one on the process's CPU clock (all its threads). When one expires, the
** signal handler does what Ctrl-C's does, but its hook stays: every later
** instruction raises "interrupted!" (lab code's pcall cannot keep it, the
** sandbox is tripped, C loops see interrupt_requested) until the call has
** unwound to core.with_deadline, which disarms it. After expiry the wall
** timer fires again every DEADLINE_REPEAT_MS, in case code in between took
** the hook away (a sandbox call that started).
*/
enum { DEADLINE_WALL, DEADLINE_CPU, DEADLINE_KINDS, DEADLINE_INTERRUPTED = DEADLINE_KINDS };
enum { DEADLINE_SIGNAL = SIGVTALRM, DEADLINE_REPEAT_MS = 50 };

static struct {
    lua_State *L;                   /* the thread the call runs on */
    timer_t timers[DEADLINE_KINDS];
    int made[DEADLINE_KINDS];       /* which of them exist */
    volatile sig_atomic_t passed;   /* 0, or 1 + the kind of the deadline that passed */
} deadline;

static int deadline_has_passed(void)
{
    return deadline.passed != 0;
}

/* Raises at each instruction from now on: past the deadline, nothing runs on. */
static void deadline_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    interrupt_requested = 1;
    if (lab_code_runs())
        end_lab_code(L, "interrupted!");
    luaL_error(L, "interrupted!");
}

static void deadline_stop(lua_State *L)
{
    interrupt_requested = 1;
    lua_sethook(L, deadline_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

/* Ctrl-C inside core.with_deadline ends the whole call as a deadline does
   (no pcall in between keeps it going); 1 when it did. */
static int deadline_takes_interrupt(void)
{
    if (!deadline.L)
        return 0;
    if (!deadline.passed)
        deadline.passed = 1 + DEADLINE_INTERRUPTED;
    deadline_stop(deadline.L);
    return 1;
}

static struct itimerspec in_seconds(double seconds, double repeat_seconds)
{
    struct itimerspec when = { 0 };
    when.it_value.tv_sec = (time_t)seconds;
    when.it_value.tv_nsec = (long)((seconds - (double)(time_t)seconds) * 1e9);
    if (when.it_value.tv_sec == 0 && when.it_value.tv_nsec == 0)
        when.it_value.tv_nsec = 1;   /* zero would disarm it */
    when.it_interval.tv_nsec = (long)(repeat_seconds * 1e9);
    return when;
}

static void on_deadline(int signal_number, siginfo_t *info, void *context)
{
    (void)signal_number, (void)context;
    if (!deadline.passed) {
        deadline.passed = 1 + info->si_value.sival_int;
        struct itimerspec again = in_seconds(DEADLINE_REPEAT_MS / 1e3, DEADLINE_REPEAT_MS / 1e3);
        timer_settime(deadline.timers[DEADLINE_WALL], 0, &again, NULL);   /* async-signal-safe */
    }
    deadline_stop(deadline.L);
}

/* Starts the timer of one kind of deadline; 0, or -1 (errno set). */
static int arm_timer(int kind, clockid_t clock, double seconds)
{
    struct sigevent event = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = DEADLINE_SIGNAL };
    event.sigev_value.sival_int = kind;
    if (timer_create(clock, &event, &deadline.timers[kind]) != 0)
        return -1;
    deadline.made[kind] = 1;
    struct itimerspec when = in_seconds(seconds, 0);
    return timer_settime(deadline.timers[kind], 0, &when, NULL);
}

static double clock_seconds(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* core.with_deadline(cpu_seconds, wall_seconds, fn, ...): calls fn(...) in
   protected mode; past either limit it is stopped as Ctrl-C stops a call.
   Returns "ok" and fn's results, "error" and its error value, or "cpu",
   "wall" (the limit that stopped it) or "interrupted" (Ctrl-C, which stops
   the whole call too) and the seconds it ran, wall and CPU. */
static int core_with_deadline(lua_State *L)
{
    double limits[DEADLINE_KINDS];
    limits[DEADLINE_CPU] = luaL_checknumber(L, 1);
    limits[DEADLINE_WALL] = luaL_checknumber(L, 2);
    luaL_checktype(L, 3, LUA_TFUNCTION);
    for (int kind = 0; kind < DEADLINE_KINDS; kind++)
        luaL_argcheck(L, limits[kind] > 0 && limits[kind] <= 86400, kind == DEADLINE_CPU ? 1 : 2,
                      "a limit from 0 to 86400 seconds");
    if (deadline.L)
        return luaL_error(L, "core.with_deadline: already inside a deadline");
    struct sigaction action = { .sa_sigaction = on_deadline, .sa_flags = SA_SIGINFO }, previous;
    sigemptyset(&action.sa_mask);   /* no SA_RESTART: a waiting select() returns EINTR */
    lua_Hook hook = lua_gethook(L);
    int mask = lua_gethookmask(L), count = lua_gethookcount(L);
    double wall_start = clock_seconds(CLOCK_MONOTONIC), cpu_start = clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
    deadline.L = L;
    deadline.passed = 0;
    sigaction(DEADLINE_SIGNAL, &action, &previous);
    int armed = arm_timer(DEADLINE_WALL, CLOCK_MONOTONIC, limits[DEADLINE_WALL]) == 0;
    armed = armed && arm_timer(DEADLINE_CPU, CLOCK_PROCESS_CPUTIME_ID, limits[DEADLINE_CPU]) == 0;
    int error = errno, status = armed ? lua_pcall(L, lua_gettop(L) - 3, LUA_MULTRET, 0) : LUA_ERRRUN;
    for (int kind = 0; kind < DEADLINE_KINDS; kind++)
        if (deadline.made[kind])
            timer_delete(deadline.timers[kind]);
    memset(deadline.made, 0, sizeof deadline.made);
    sigaction(DEADLINE_SIGNAL, &previous, NULL);
    int passed = deadline.passed;
    deadline.L = NULL;
    deadline.passed = 0;
    lua_sethook(L, hook, mask, count);
    if (passed)
        interrupt_requested = 0;
    if (!armed)
        return luaL_error(L, "core.with_deadline: no timer: %s", strerror(error));
    if (passed) {
        static const char *const stopped_by[] = { "wall", "cpu", "interrupted" };
        lua_pushstring(L, stopped_by[passed - 1]);
        lua_pushnumber(L, clock_seconds(CLOCK_MONOTONIC) - wall_start);
        lua_pushnumber(L, clock_seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu_start);
        return 3;
    }
    lua_pushstring(L, status == LUA_OK ? "ok" : "error");
    lua_insert(L, 3);
    return lua_gettop(L) - 2;
}

static const luaL_Reg interrupt_functions[] = {
    { "with_deadline", core_with_deadline },
    { NULL, NULL },
};

void interrupt_open(lua_State *L)
{
    luaL_setfuncs(L, interrupt_functions, 0);
}
