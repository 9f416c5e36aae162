/*
** sandbox.c — the guard lab code runs under (see sandbox.h). One budget
** counts the Lua instructions lab code runs, the bytes it allocates and the
** work standard functions do in C for it (patterns, string.rep, sorting);
** a second counts the CPU time of the launches it starts, which a watch
** thread stops mid-way; one memory cap holds for its Lua and the buffers its
** launches ask for. Past a budget, past the memory cap or after Ctrl-C the
** guard "trips": every later instruction raises the same error, and the
** lab's pcall passes it on, so nothing in the lab can catch it.
*/
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <lauxlib.h>
#include "interrupt.h"
#include "sandbox.h"
#include "support/text.h"

enum {
    HOOK_PERIOD = 1000,              /* instructions between two looks at the budget */
    BYTES_PER_INSTRUCTION = 16,      /* what copying or allocating a byte costs, in instructions */
    INSTRUCTIONS_PER_MS = 50000,     /* what a millisecond of lab code costs at the least */
};
/* What one call of lab code may use (a step's experiment, an answer
   function, a lab's own kernel's fills at one launch): its own work, and
   the CPU time of the launches it starts (the built-in labs' steps take at
   most about 2 s of it on a slow 2-core machine; 20 s leaves room for
   sanitizers and slower machines). A lab's body, which :labs runs for every
   lab just to list them, only declares the lab: its launches get 1 s. */
enum budget_kind { BUDGET_CALL, BUDGET_BODY };
static const struct {
    long long instructions;   /* about 1 s of work of any kind */
    double launch_ms;         /* CPU time of the process (every thread) in launches */
} budgets[] = {
    [BUDGET_CALL] = { 50000000, 20000 },
    [BUDGET_BODY] = { 50000000, 1000 },
};
static const size_t MEMORY_CAP = (size_t)256 << 20;     /* over what the state held when the lab opened */
static const size_t MEMORY_HEADROOM = (size_t)16 << 20; /* for one call, however much the student holds */

#define METERED_STRING_KEY "warplab.sandbox.string"   /* strings' __index while lab code runs; never given out */
#define SAVED_STRING_INDEX_KEY "warplab.sandbox.saved_index"

static struct {
    size_t heap_bytes;      /* what the Lua state holds now */
    size_t heap_limit;      /* lab code's cap, or the shell's own (0: none yet) */
    size_t c_bytes;         /* what the emulator's buffers hold between launches: under the same cap */
    int depth;              /* sandbox_call nesting */
    long long budget_left;
    const char *tripped;    /* once set, what every instruction of lab code raises */
    int tripped_by_interrupt;
    int lab_tripped;        /* a call since the lab opened ended at a budget or the memory cap */
    int memory_refused;     /* an allocation was refused since lab code started */
    size_t lab_heap_bytes;  /* what the state held when the lab opened (0: not known) */
    double last_look_ms;    /* when the hook last charged the budget */
    double excluded_ms;     /* time in launches since then: not lab code's */
    double launch_ms_budget, launch_ms_left;   /* what launches may take in this call, and still may */
    volatile sig_atomic_t launch_budget_spent;   /* the timer fired: the launch running now stops */
    int launching;          /* run_all nesting, while lab code runs */
    double launch_started_cpu_ms;
} guard;

/* A launch at the prompt (a student's, of a kernel a lab declared): the lab
   code it calls (sizes, fills, reference), each call guarded on its own,
   draws on one budget, not a fresh one a call. */
static struct {
    int open;
    int started;            /* a call drew on it already: budget_left holds what is left */
    long long budget_left;
} shared_budget;

/* Instructions granted to the next guarded call (sandbox_grant_begin, when no lab code runs). */
static long long granted;

void sandbox_grant_begin(long long instructions)
{
    if (guard.depth > 0)
        guard.budget_left += instructions;
    else
        granted = instructions;
}

void sandbox_grant_end(void)
{
    granted = 0;
}

static const char *too_long(void)
{
    return SAY("the lab's code ran too long (a loop that never ends?)",
               "实验代码运行时间过长（是不是有死循环？）");
}

/* The launch budget's error, naming the budget of the code running now. */
static const char *launches_too_long(void)
{
    static char message[200];
    snprintf(message, sizeof message,
             SAY("the lab's launches ran too long (over the %.0f s of CPU time they may take here; a size too large?)",
                 "实验启动的核函数运行时间过长（超过此处允许的 %.0f 秒 CPU 时间；规模太大？）"),
             guard.launch_ms_budget / 1e3);
    return message;
}

static const char *too_much_memory(void)
{
    return SAY("the lab's code needs more than 256 MiB of memory", "实验代码需要超过 256 MiB 的内存");
}

/* What counts against the memory cap: the Lua state's, and the emulator's buffers. */
static size_t held_bytes(void)
{
    return guard.heap_bytes + __atomic_load_n(&guard.c_bytes, __ATOMIC_RELAXED);
}

void *sandbox_alloc(void *ud, void *ptr, size_t old_size, size_t new_size)
{
    (void)ud;
    if (ptr == NULL)
        old_size = 0;
    if (new_size == 0) {
        free(ptr);
        guard.heap_bytes -= old_size;
        return NULL;
    }
    if (new_size > old_size && guard.heap_limit) {
        size_t growth = new_size - old_size;
        if (held_bytes() + growth > guard.heap_limit) {
            guard.memory_refused = 1;
            return NULL;
        }
        guard.budget_left -= (long long)(growth / BYTES_PER_INSTRUCTION);
    }
    void *block = realloc(ptr, new_size);
    if (block)
        guard.heap_bytes += new_size - old_size;
    return block;
}

int sandbox_active(void)
{
    return guard.depth > 0;
}

static void budget_hook(lua_State *L, lua_Debug *ar);

void sandbox_trip(lua_State *L, const char *message)
{
    if (!guard.tripped)
        guard.tripped = message;
    guard.tripped_by_interrupt |= strcmp(message, "interrupted!") == 0;
    lua_sethook(L, budget_hook, LUA_MASKCOUNT, 1);   /* from now on, at every instruction */
}

double sandbox_clock_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* What the instructions since the last look cost: their count, or the CPU
   time they took (outside launches) where that is more: some instructions do
   much work in C (comparing long strings, passing many arguments). CPU time
   of this thread, not the wall clock's: a busy machine does not make lab
   code run too long. */
static long long cost_since_last_look(void)
{
    double now = sandbox_clock_ms();
    double spent = (now - guard.last_look_ms - guard.excluded_ms) * INSTRUCTIONS_PER_MS;
    guard.last_look_ms = now;
    guard.excluded_ms = 0;
    return spent > HOOK_PERIOD ? (long long)spent : HOOK_PERIOD;
}

void sandbox_exclude(double ms)
{
    if (guard.depth > 0)
        guard.excluded_ms += ms;
}

/* Every HOOK_PERIOD instructions of lab code (every one once tripped). */
static void budget_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    if (!guard.tripped && (guard.budget_left -= cost_since_last_look()) < 0)
        sandbox_trip(L, too_long());
    if (guard.tripped)
        luaL_error(L, "%s", guard.tripped);
}

/* Takes cost instructions' worth of C work from the budget, first. */
static void charge(lua_State *L, double cost)
{
    if (guard.depth == 0)
        return;
    if (guard.tripped || cost > (double)guard.budget_left) {
        sandbox_trip(L, too_long());
        luaL_error(L, "%s", guard.tripped);
    }
    guard.budget_left -= (long long)cost;
}

/* While lab code runs, method calls on strings (s:rep(n)) go to the metered functions too. */
static void swap_string_index(lua_State *L, int into_sandbox)
{
    lua_pushliteral(L, "");
    lua_getmetatable(L, -1);
    if (into_sandbox) {
        lua_getfield(L, -1, "__index");
        lua_setfield(L, LUA_REGISTRYINDEX, SAVED_STRING_INDEX_KEY);
        lua_getfield(L, LUA_REGISTRYINDEX, METERED_STRING_KEY);
    } else {
        lua_getfield(L, LUA_REGISTRYINDEX, SAVED_STRING_INDEX_KEY);
    }
    lua_setfield(L, -2, "__index");
    lua_pop(L, 2);
}

void sandbox_pause_begin(lua_State *L, struct sandbox_pause *pause)
{
    pause->paused = guard.depth > 0;
    if (!pause->paused)
        return;
    pause->hook = lua_gethook(L);
    pause->mask = lua_gethookmask(L);
    pause->count = lua_gethookcount(L);
    pause->started_ms = sandbox_clock_ms();
    lua_sethook(L, NULL, 0, 0);
    swap_string_index(L, 0);
}

void sandbox_pause_end(lua_State *L, const struct sandbox_pause *pause)
{
    if (!pause->paused)
        return;
    swap_string_index(L, 1);
    lua_sethook(L, pause->hook, pause->mask, pause->count);
    sandbox_exclude(sandbox_clock_ms() - pause->started_ms);
}

/* The shell's own memory cap, for what the student does at the prompt:
   half of this machine's memory, so that no launch or table can take it all. */
static size_t shell_memory_cap(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
    return pages > 0 && page_size > 0 ? (size_t)pages * (size_t)page_size / 2 : (size_t)8 << 30;
}

static void guard_begin(lua_State *L, enum budget_kind kind)
{
    guard.budget_left = shared_budget.started ? shared_budget.budget_left : budgets[kind].instructions;
    shared_budget.started = shared_budget.open;
    guard.budget_left += granted;
    granted = 0;
    guard.launch_ms_budget = guard.launch_ms_left = budgets[kind].launch_ms;
    guard.launch_budget_spent = 0;
    guard.launching = 0;
    guard.tripped = NULL;
    guard.tripped_by_interrupt = 0;
    guard.memory_refused = 0;
    guard.last_look_ms = sandbox_clock_ms();
    guard.excluded_ms = 0;
    size_t lab_limit = (guard.lab_heap_bytes ? guard.lab_heap_bytes : held_bytes()) + MEMORY_CAP;
    guard.heap_limit = lab_limit > held_bytes() + MEMORY_HEADROOM ? lab_limit : held_bytes() + MEMORY_HEADROOM;
    swap_string_index(L, 1);
    lua_sethook(L, budget_hook, LUA_MASKCOUNT, guard.budget_left > 0 ? HOOK_PERIOD : 1);
}

static void stop_watch(void);

static void guard_end(lua_State *L)
{
    stop_watch();   /* a launch that raised an error leaves it running */
    guard.launching = 0;
    if (shared_budget.open)
        shared_budget.budget_left = guard.tripped ? 0 : guard.budget_left;
    guard.heap_limit = shell_memory_cap();
    guard.lab_tripped |= guard.tripped && !guard.tripped_by_interrupt;
    swap_string_index(L, 0);
    lua_sethook(L, NULL, 0, 0);
    if (guard.tripped_by_interrupt)
        interrupt_raise_again(L);   /* Ctrl-C stops the code that called the lab's too */
}

/* The error that ends lab code: the guard's own when it tripped or refused memory. */
static void push_final_error(lua_State *L, int status)
{
    if (status == LUA_ERRMEM && guard.memory_refused && !guard.tripped)
        guard.tripped = too_much_memory();
    if (guard.tripped)
        lua_pushstring(L, guard.tripped);
    else
        lua_pushvalue(L, -1);
}

/* fn(...) (argument 1) under the guard with the kind's budget; its results, or its error raised again. */
static int guarded_call(lua_State *L, enum budget_kind kind)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    if (guard.depth > 0) {   /* lab code calling back into lab code: one guard */
        lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
        return lua_gettop(L);
    }
    guard.depth = 1;
    guard_begin(L, kind);
    int status = lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0);
    if (status != LUA_OK)
        push_final_error(L, status);
    guard.depth = 0;
    guard_end(L);
    if (status != LUA_OK)
        return lua_error(L);
    return lua_gettop(L);
}

/* core.sandbox_call(fn, ...): fn(...) as lab code, under a call's budget. */
static int sandbox_call(lua_State *L)
{
    return guarded_call(L, BUDGET_CALL);
}

/* core.sandbox_body(fn, ...): fn(...), a lab's body, under the body's
   smaller budget; inside sandbox_call (labs.load's guarded) it lowers what
   is left to the body's. */
static int sandbox_body(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    if (guard.depth == 0)
        return guarded_call(L, BUDGET_BODY);
    if (guard.budget_left > budgets[BUDGET_BODY].instructions)
        guard.budget_left = budgets[BUDGET_BODY].instructions;
    if (guard.launch_ms_left > budgets[BUDGET_BODY].launch_ms)
        guard.launch_ms_budget = guard.launch_ms_left = budgets[BUDGET_BODY].launch_ms;
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* After the lab's own pcall failed: passes the guard's error on, else returns false, error. */
static int protected_outcome(lua_State *L, int status)
{
    if (status == LUA_OK) {
        lua_pushboolean(L, 1);
        lua_insert(L, 1);
        return lua_gettop(L);
    }
    if (status == LUA_ERRMEM && guard.memory_refused && guard.depth > 0)
        sandbox_trip(L, too_much_memory());
    if (guard.tripped && guard.depth > 0)
        return luaL_error(L, "%s", guard.tripped);
    lua_pushboolean(L, 0);
    lua_insert(L, -2);
    return 2;
}

/* The lab's pcall(f, ...). */
static int sandbox_pcall(lua_State *L)
{
    luaL_checkany(L, 1);
    return protected_outcome(L, lua_pcall(L, lua_gettop(L) - 1, LUA_MULTRET, 0));
}

/* The message handler under the lab's xpcall: the lab's own handler (upvalue
   1), unless the guard tripped (then the error raised inside a hook, where
   hooks are off and the lab's handler could loop unbudgeted). */
static int guarded_handler(lua_State *L)
{
    if (guard.tripped && guard.depth > 0)
        return 1;
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

/* The lab's xpcall(f, handler, ...). */
static int sandbox_xpcall(lua_State *L)
{
    int n = lua_gettop(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushvalue(L, 2);
    lua_remove(L, 2);
    lua_pushcclosure(L, guarded_handler, 1);   /* f, args..., guarded */
    lua_insert(L, 1);                          /* guarded, f, args... */
    int status = lua_pcall(L, n - 2, LUA_MULTRET, 1);
    lua_remove(L, 1);
    return protected_outcome(L, status);
}

/*
** Metered standard functions: each charges the budget for its C work, then
** calls the original (upvalue 1). The kind of cost is upvalue 2.
*/
enum cost_kind { COST_LINEAR, COST_PATTERN, COST_REP, COST_TABLE, COST_MOVE, COST_SORT, COST_UNPACK };

/* Bytes in the string arguments: what a linear function reads. */
static double string_bytes(lua_State *L)
{
    double bytes = 0;
    for (int i = 1; i <= lua_gettop(L); i++)
        if (lua_type(L, i) == LUA_TSTRING)
            bytes += (double)lua_rawlen(L, i);
    return bytes;
}

/* Skips one single-character class of a Lua pattern at p: %x, [set], or one character. */
static const char *skip_class(const char *p, const char *end)
{
    if (*p == '%')
        return p + 2 <= end ? p + 2 : end;
    if (*p == '[') {
        p++;
        if (p < end && *p == '^')
            p++;
        do {   /* the first ']' of a set is a member, as in Lua */
            if (p < end && *p == '%')
                p++;
            p++;
        } while (p < end && *p != ']');
        return p < end ? p + 1 : end;
    }
    return p + 1;
}

/* The variable-length items of a pattern (x*, x+, x-): the exponent of its worst case. */
static int pattern_repeats(const char *p, size_t length)
{
    const char *end = p + length;
    int repeats = 0;
    while (p < end) {
        if (*p == '(' || *p == ')') {
            p++;
            continue;
        }
        if (*p == '%' && p + 1 < end && p[1] == 'f') {
            p = skip_class(p + 2, end);
            continue;
        }
        if (*p == '%' && p + 1 < end && (p[1] == 'b' || (p[1] >= '1' && p[1] <= '9'))) {
            repeats++;   /* a balance scans on to its end; a back reference compares a capture */
            p += p[1] == 'b' ? 4 : 2;
            continue;
        }
        p = skip_class(p, end);
        if (p < end && (*p == '*' || *p == '+' || *p == '-')) {
            repeats++;
            p++;
        } else if (p < end && *p == '?') {
            p++;
        }
    }
    return repeats;
}

/* The worst case of matching pattern (argument 2) in the subject (argument 1):
   every start, each variable-length item trying every length. */
static double pattern_cost(lua_State *L)
{
    size_t subject_length, pattern_length;
    if (lua_type(L, 1) != LUA_TSTRING || lua_type(L, 2) != LUA_TSTRING)
        return 1;   /* the original raises the argument error */
    lua_tolstring(L, 1, &subject_length);
    const char *pattern = lua_tolstring(L, 2, &pattern_length);
    double n = (double)subject_length + 1;
    if (lua_toboolean(L, 4) || pattern_length == 0)   /* a plain find */
        return n * ((double)pattern_length + 1);
    double starts = pattern[0] == '^' ? 1 : n;
    return starts * pow(n, pattern_repeats(pattern, pattern_length)) * ((double)pattern_length + 1);
}

/* A sort's comparisons, each as dear as the strings it compares. */
static double sort_cost(lua_State *L)
{
    if (lua_type(L, 1) != LUA_TTABLE)
        return 1;
    double length = (double)lua_rawlen(L, 1) + 2, bytes = 0;
    for (lua_Integer i = 1; i <= (lua_Integer)lua_rawlen(L, 1); i++) {
        if (lua_rawgeti(L, 1, i) == LUA_TSTRING)
            bytes += (double)lua_rawlen(L, -1);
        lua_pop(L, 1);
    }
    return length + length * log2(length) * (1 + bytes / length / BYTES_PER_INSTRUCTION);
}

/* How many elements arguments first and last (numbers, else the defaults) span: at least 1. */
static double span(lua_State *L, int first, int last, double default_first, double default_last)
{
    double from = lua_type(L, first) == LUA_TNUMBER ? lua_tonumber(L, first) : default_first;
    double to = lua_type(L, last) == LUA_TNUMBER ? lua_tonumber(L, last) : default_last;
    return to - from + 1 > 1 ? to - from + 1 : 1;
}

static double cost_of(lua_State *L, enum cost_kind kind)
{
    double length;
    switch (kind) {
    case COST_PATTERN:
        return pattern_cost(L) + string_bytes(L) / BYTES_PER_INSTRUCTION;
    case COST_REP:   /* one copy a repetition, however short */
        length = lua_type(L, 2) == LUA_TNUMBER ? lua_tonumber(L, 2) : 0;
        return length <= 0 ? 1 : length * (1 + string_bytes(L) / BYTES_PER_INSTRUCTION);
    case COST_TABLE:
        return lua_type(L, 1) == LUA_TTABLE ? (double)lua_rawlen(L, 1) + 1 : 1;
    case COST_MOVE:   /* table.move(a, f, e, t): e - f + 1 moves */
        return span(L, 2, 3, 1, 0);
    case COST_SORT:
        return sort_cost(L);
    case COST_UNPACK:   /* table.unpack(t, i, j): j - i + 1 values */
        return lua_type(L, 1) == LUA_TTABLE ? span(L, 2, 3, 1, (double)lua_rawlen(L, 1)) : 1;
    case COST_LINEAR:
    default:
        return string_bytes(L) / BYTES_PER_INSTRUCTION + 1;
    }
}

static int metered(lua_State *L)
{
    charge(L, cost_of(L, (enum cost_kind)lua_tointeger(L, lua_upvalueindex(2))));
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* Which standard functions cost more than their instruction; the rest are
   linear in their strings (what they allocate, the allocator charges too). */
static const struct {
    const char *library, *name;
    enum cost_kind kind;
} costs[] = {
    { "string", "find", COST_PATTERN },  { "string", "match", COST_PATTERN },
    { "string", "gmatch", COST_PATTERN }, { "string", "gsub", COST_PATTERN },
    { "string", "rep", COST_REP },
    { "table", "concat", COST_TABLE },   { "table", "insert", COST_TABLE },
    { "table", "remove", COST_TABLE },   { "table", "move", COST_MOVE },
    { "table", "sort", COST_SORT },      { "table", "unpack", COST_UNPACK },
};

static enum cost_kind kind_of(const char *library, const char *name)
{
    for (size_t i = 0; i < sizeof costs / sizeof costs[0]; i++)
        if (strcmp(costs[i].library, library) == 0 && strcmp(costs[i].name, name) == 0)
            return costs[i].kind;
    return COST_LINEAR;
}

static const char *const libraries[] = { "string", "table", "math", "utf8", NULL };

/* Pushes a new table of a standard library's functions, each metered (math
   needs no meter: a copy), from the library as it was when the session began. */
static void push_metered_library(lua_State *L, const char *library)
{
    int meter = strcmp(library, "math") != 0;
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    lua_getfield(L, -1, library);
    lua_remove(L, -2);
    lua_newtable(L);
    lua_pushnil(L);
    while (lua_next(L, -3)) {
        if (meter && lua_type(L, -1) == LUA_TFUNCTION && lua_type(L, -2) == LUA_TSTRING) {
            lua_pushinteger(L, kind_of(library, lua_tostring(L, -2)));
            lua_pushcclosure(L, metered, 2);
        }
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_settable(L, -4);
    }
    lua_remove(L, -2);
}

/* Pushes a shallow copy of the table on top of the stack, in its place. */
static void replace_with_copy(lua_State *L)
{
    lua_newtable(L);
    lua_pushnil(L);
    while (lua_next(L, -3)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_settable(L, -4);
    }
    lua_remove(L, -2);
}

/* core.sandbox_library(name): a lab's own copy of string, table, math or utf8. */
static int sandbox_library(lua_State *L)
{
    const char *library = libraries[luaL_checkoption(L, 1, NULL, libraries)];
    lua_pushfstring(L, "warplab.sandbox.%s", library);
    lua_rawget(L, LUA_REGISTRYINDEX);
    replace_with_copy(L);
    return 1;
}

/*
** Launches lab code starts: their CPU time (every thread's: the model's and
** the emulator's run on threads of their own) comes out of the call's
** launch budget. A watch thread looks at the clock while they run and,
** when the budget is spent, stops them as Ctrl-C would.
*/
enum { WATCH_PERIOD_MS = 10 };

static struct {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    int running, stop;
    double deadline_ms;   /* of process CPU time */
} watch = { .lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER };

static double process_cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void *watch_launches(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&watch.lock);
    while (!watch.stop) {
        if (process_cpu_ms() >= watch.deadline_ms) {
            guard.launch_budget_spent = 1;
            interrupt_requested = 1;   /* the model, the emulator and a GPU's wait stop at it */
            break;
        }
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += WATCH_PERIOD_MS * 1000000L;
        until.tv_sec += until.tv_nsec / 1000000000L;
        until.tv_nsec %= 1000000000L;
        pthread_cond_timedwait(&watch.wake, &watch.lock, &until);
    }
    pthread_mutex_unlock(&watch.lock);
    return NULL;
}

static void start_watch(double deadline_ms)
{
    watch.stop = 0;
    watch.deadline_ms = deadline_ms;
    watch.running = start_worker(&watch.thread, watch_launches, NULL) == 0;
}

static void stop_watch(void)
{
    if (!watch.running)
        return;
    pthread_mutex_lock(&watch.lock);
    watch.stop = 1;
    pthread_cond_signal(&watch.wake);
    pthread_mutex_unlock(&watch.lock);
    pthread_join(watch.thread, NULL);
    watch.running = 0;
}

void sandbox_launches_begin(void)
{
    if (guard.depth == 0 || guard.launching++ > 0)
        return;
    guard.launch_started_cpu_ms = process_cpu_ms();
    guard.launch_budget_spent = guard.launch_ms_left <= 0;
    if (!guard.launch_budget_spent)
        start_watch(guard.launch_started_cpu_ms + guard.launch_ms_left);
}

void sandbox_launches_end(void)
{
    if (guard.launching == 0 || --guard.launching > 0)
        return;
    stop_watch();
    guard.launch_ms_left -= process_cpu_ms() - guard.launch_started_cpu_ms;
    if (guard.launch_ms_left <= 0)
        guard.launch_budget_spent = 1;
}

void sandbox_launches_check(lua_State *L)
{
    if (guard.depth == 0 || !guard.launch_budget_spent)
        return;
    interrupt_requested = 0;   /* the watch's, not a Ctrl-C */
    sandbox_trip(L, launches_too_long());
    luaL_error(L, "%s", guard.tripped);
}

/* The shared budget's __close: the launch at the prompt is over. */
static int close_shared_budget(lua_State *L)
{
    (void)L;
    shared_budget.open = 0;
    shared_budget.started = 0;
    return 0;
}

#define SHARED_BUDGET_KEY "warplab.sandbox.shared_budget"

void sandbox_share_budget(lua_State *L)
{
    if (guard.depth > 0 || shared_budget.open) {
        lua_pushnil(L);   /* lab code's own launch, or one inside another: its budget holds already */
    } else {
        shared_budget.open = 1;
        shared_budget.started = 0;
        lua_getfield(L, LUA_REGISTRYINDEX, SHARED_BUDGET_KEY);
    }
    lua_toclose(L, -1);
}

/*
** One memory cap for Lua and for the buffers launches ask for: lab code's
** (MEMORY_CAP over what the state held when the lab opened) while it runs,
** else the shell's own.
*/
void sandbox_hold_c_bytes(long long change)
{
    __atomic_add_fetch(&guard.c_bytes, (size_t)change, __ATOMIC_RELAXED);
}

int sandbox_memory_refuses(double bytes, const char *what, char *why, size_t why_size)
{
    /* the launch's buffers take the place of the emulator's kept ones: Lua's bytes and its own count */
    double cap = (double)guard.heap_limit, held = (double)guard.heap_bytes;
    if (guard.heap_limit == 0 || held + bytes <= cap)
        return 0;
    char needed[32], limit[32];
    format_bytes(bytes, needed, sizeof needed);
    if (guard.depth > 0)
        snprintf(why, why_size, SAY("%s needs %s of buffers; the lab's memory cap is 256 MiB, for its code and its launches",
                                    "%s 需要 %s 的缓冲区；实验的内存上限是 256 MiB（代码与启动合计）"), what, needed);
    else
        snprintf(why, why_size, SAY("%s needs %s of buffers; the shell's memory cap is %s (half of this machine's memory)",
                                    "%s 需要 %s 的缓冲区；warplab 的内存上限是 %s（本机内存的一半）"),
                 what, needed, format_bytes(cap, limit, sizeof limit));
    return 1;
}

/* core.sandbox_new_lab(): a lab opens; its code may hold MEMORY_CAP more than the state holds now. */
static int sandbox_new_lab(lua_State *L)
{
    (void)L;
    guard.lab_heap_bytes = held_bytes();
    guard.lab_tripped = 0;
    return 0;
}

/* core.sandbox_lab_tripped(): whether lab code ran past a budget or the
   memory cap since the lab opened (the checker then runs it under no more profiles). */
static int sandbox_lab_tripped(lua_State *L)
{
    lua_pushboolean(L, guard.lab_tripped);
    return 1;
}

static const luaL_Reg sandbox_functions[] = {
    { "sandbox_new_lab", sandbox_new_lab },
    { "sandbox_lab_tripped", sandbox_lab_tripped },
    { "sandbox_call", sandbox_call },
    { "sandbox_body", sandbox_body },
    { "sandbox_pcall", sandbox_pcall },
    { "sandbox_xpcall", sandbox_xpcall },
    { "sandbox_library", sandbox_library },
    { NULL, NULL },
};

void sandbox_open(lua_State *L)
{
    static const struct interrupt_guard ctrl_c_ends_lab_code = { sandbox_active, sandbox_trip };
    interrupt_set_guard(&ctrl_c_ends_lab_code);
    luaL_setfuncs(L, sandbox_functions, 0);
    guard.heap_limit = shell_memory_cap();
    lua_newtable(L);   /* what sandbox_share_budget marks to be closed */
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, close_shared_budget);
    lua_setfield(L, -2, "__close");
    lua_setmetatable(L, -2);
    lua_setfield(L, LUA_REGISTRYINDEX, SHARED_BUDGET_KEY);
    for (int i = 0; libraries[i]; i++) {
        char key[64];
        snprintf(key, sizeof key, "warplab.sandbox.%s", libraries[i]);
        push_metered_library(L, libraries[i]);
        lua_setfield(L, LUA_REGISTRYINDEX, key);
    }
}
