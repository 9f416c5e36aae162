/*
** session.c — the Lua state and everything run in it goes through
** session_run: shorthand rewrite, load, protected call with a traceback.
*/
#include <ctype.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lauxlib.h>
#include <lualib.h>
#include "api/lua_keys.h"
#include "interrupt.h"
#include "output.h"
#include "api/session.h"
#include "api/shorthand.h"
#include "model/profiles.h"
#include "sandbox.h"

/* The Lua part of warplab, Makefile.am's LUA_MODULES (shell/api/lua_sources.c,
   by build-aux/embed): the modules "warplab.NAME", whose chunk names are "=NAME". */
extern const struct {
    const char *name;
    const char *text;
} lua_modules[];
extern const int lua_modules_count;

struct session session;

/* Whether a stack frame runs code the user wrote: a Lua function (not a
   chunk's own frame) from a chunk that is not one of the built-in modules. */
static int is_user_frame(const lua_Debug *ar)
{
    if (strcmp(ar->what, "Lua") != 0)
        return 0;
    for (int i = 0; i < lua_modules_count; i++)
        if (ar->source[0] == '=' && strcmp(ar->source + 1, lua_modules[i].name) == 0)
            return 0;
    return 1;
}

/* What a frame's namewhat is called in a traceback line, in each language. */
static const char *frame_kind(const char *namewhat)
{
    static const struct { const char *namewhat, *en, *zh; } kinds[] = {
        { "global", "function", "函数" }, { "local", "local", "局部函数" }, { "method", "method", "方法" },
        { "field", "field", "字段" },     { "upvalue", "upvalue", "上值函数" },
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(namewhat, kinds[i].namewhat) == 0)
            return SAY(kinds[i].en, kinds[i].zh);
    return namewhat;
}

/* One frame as luaL_traceback writes it: "stdin:3: in function 'f'". */
static void push_frame_text(lua_State *L, const lua_Debug *ar)
{
    if (*ar->namewhat)
        lua_pushfstring(L, SAY("%s:%d: in %s '%s'", "%s:%d: 在%s '%s' 中"), ar->short_src, ar->currentline,
                        frame_kind(ar->namewhat), ar->name);
    else
        lua_pushfstring(L, SAY("%s:%d: in function <%s:%d>", "%s:%d: 在函数 <%s:%d> 中"), ar->short_src,
                        ar->currentline, ar->short_src, ar->linedefined);
}

/* The message, then the frames of functions the user wrote (at most five),
   so that an API misuse stays one line and an error inside the user's own
   function says where. Frames of C and of the built-in modules say nothing
   to the user. */
static void push_short_traceback(lua_State *L, const char *message)
{
    luaL_Buffer b;
    lua_Debug ar;
    int kept = 0;
    luaL_buffinit(L, &b);
    luaL_addstring(&b, message);
    for (int level = 1; kept < 5 && lua_getstack(L, level, &ar); level++) {
        if (!lua_getinfo(L, "Sln", &ar) || !is_user_frame(&ar))
            continue;
        luaL_addstring(&b, kept++ ? "\n  \t" : SAY("\n  traceback:\n  \t", "\n  调用栈：\n  \t"));
        push_frame_text(L, &ar);
        luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
}

/* Message handler: the error text plus a short traceback. */
static int message_handler(lua_State *L)
{
    const char *message = lua_tostring(L, 1);
    if (message == NULL) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
            return 1;
        message = lua_pushfstring(L, SAY("(error object is a %s value)", "（错误对象是 %s 值）"), luaL_typename(L, 1));
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

/* Whether code has `word =` (not `==`) with word whole: a Lua keyword
   written as a table key, { in = ... }. */
static int keyword_as_key(const char *code, const char *word)
{
    size_t length = strlen(word);
    for (const char *at = strstr(code, word); at; at = strstr(at + 1, word)) {
        const char *after = at + length;
        if (at > code && (isalnum((unsigned char)at[-1]) || at[-1] == '_' || at[-1] == '.'))
            continue;
        while (*after == ' ' || *after == '\t')
            after++;
        if (*after == '=' && after[1] != '=')
            return 1;
    }
    return 0;
}

/* A syntax error near a Lua keyword that code uses as a table key gets a
   second line saying how to write that key (the message on top of the stack). */
static void explain_keyword_key(lua_State *L, const char *code)
{
    static const char *const keywords[] = { "and", "break", "do", "else", "elseif", "end", "false", "for", "function",
                                            "goto", "if", "in", "local", "nil", "not", "or", "repeat", "return", "then",
                                            "true", "until", "while" };
    const char *message = lua_tostring(L, -1);
    for (size_t i = 0; message && i < sizeof keywords / sizeof keywords[0]; i++) {
        char near[32];
        snprintf(near, sizeof near, "near '%s'", keywords[i]);
        if (strstr(message, near) && keyword_as_key(code, keywords[i])) {
            lua_pushfstring(L, SAY("%s\n'%s' is a Lua keyword: as a table key write [\"%s\"] = ... (and read it as t[\"%s\"])",
                                   "%s\n'%s' 是 Lua 的关键字：作为表的键要写成 [\"%s\"] = ...（读取时写 t[\"%s\"]）"),
                            message, keywords[i], keywords[i], keywords[i]);
            lua_replace(L, -2);
            return;
        }
    }
}

int session_load(const char *code, const char *chunk_name)
{
    char *expanded = shorthand_expand(code);
    if (!expanded) {
        lua_pushstring(session.L, SAY("out of memory", "内存不足"));
        return LUA_ERRMEM;
    }
    int status = luaL_loadbuffer(session.L, expanded, strlen(expanded), chunk_name);
    if (status == LUA_ERRSYNTAX)
        explain_keyword_key(session.L, expanded);
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

#define GSUB_KEY "warplab.gsub"   /* string.gsub as the shell found it, for session_translate_error */

/* Lua's type names and what Chinese messages call them. */
static const struct {
    const char *type, *zh;
} types_zh[] = {
    { "nil", "空值" },        { "no value", "无值" },   { "boolean", "布尔值" }, { "number", "数字" },
    { "string", "字符串" },   { "table", "表" },        { "function", "函数" },  { "userdata", "用户数据" },
    { "thread", "协程" },
};

const char *type_text(const char *type)
{
    for (size_t i = 0; text_language[0] == 'z' && i < sizeof types_zh / sizeof types_zh[0]; i++)
        if (strcmp(type, types_zh[i].type) == 0)
            return types_zh[i].zh;
    return type;
}

/* Keeps string.gsub for session_translate_error, where no script can change it. */
static void keep_translation_tools(lua_State *L)
{
    lua_getglobal(L, "string");
    lua_getfield(L, -1, "gsub");
    lua_setfield(L, LUA_REGISTRYINDEX, GSUB_KEY);
    lua_pop(L, 1);
}

/* gsub's replacement for a marked name: its Chinese, or the name itself,
   after a space when it is ASCII (a metatable's __name), as Chinese text sets
   off a code word. */
static int marked_name(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1), *text = type_text(name);
    if (text == name && (unsigned char)name[0] < 0x80)
        lua_pushfstring(L, " %s", name);
    else
        lua_pushstring(L, text);
    return 1;
}

/* Lua's own English in error messages (lauxlib's argument errors, runtime
   and syntax errors), as patterns, and the Chinese shown for it under zh: the
   captures keep names, numbers and positions. In order: the argument-error
   frame first, then what it may hold. */
static const struct {
    const char *pattern, *zh;
} lua_errors_zh[] = {
    { "bad argument #(%d+) to '([^']*)' %(([^\n]*)%)", "第 %1 个参数错误（%2）：%3" },
    { "bad argument #(%d+) to '([^']*)'", "第 %1 个参数错误（%2）" },
    { "：([^\n]-) expected, got ([^\n]+)", "：应为\001%1\002，实际为\001%2\002" },
    { "：value expected", "：缺少参数值" },
    { "number has no integer representation", "数值没有整数表示" },
    { "attempt to call a (%S+) value", "试图调用\001%1\002" },
    { "attempt to index a (%S+) value", "试图索引\001%1\002" },
    { "attempt to perform arithmetic on a (%S+) value", "试图对\001%1\002做算术运算" },
    { "attempt to perform bitwise operation on a (%S+) value", "试图对\001%1\002做位运算" },
    { "attempt to concatenate a (%S+) value", "试图连接\001%1\002" },
    { "attempt to get length of a (%S+) value", "试图取\001%1\002的长度" },
    { "attempt to compare two (%S+) values", "试图比较两个\001%1\002" },
    { "attempt to compare (%S+) with (%S+)", "试图比较\001%1\002与\001%2\002" },
    { " %(global '([^'\n]*)'%)", "（全局变量 '%1'）" },
    { " %(local '([^'\n]*)'%)", "（局部变量 '%1'）" },
    { " %(field '([^'\n]*)'%)", "（字段 '%1'）" },
    { " %(method '([^'\n]*)'%)", "（方法 '%1'）" },
    { " %(upvalue '([^'\n]*)'%)", "（上值 '%1'）" },
    { " %(constant '([^'\n]*)'%)", "（常量 '%1'）" },
    { "stack overflow", "栈溢出" },
    { "not enough memory", "内存不足" },
    { "'([^'\n]+)' expected %(to close '([^'\n]+)' at line (%d+)%) near <eof>",
      "代码结束时仍缺少 '%1'（与第 %3 行的 '%2' 配对）" },
    { "unexpected symbol near <eof>", "代码意外结束" },
    { "([^%s:]+) expected near <eof>", "代码结束时仍缺少 %1" },
    { "'([^'\n]+)' expected %(to close '([^'\n]+)' at line (%d+)%) near ([^\n]+)",
      "%4 附近缺少 '%1'（与第 %3 行的 '%2' 配对）" },
    { "unexpected symbol near ([^\n]+)", "%1 附近有意外的符号" },
    { "unfinished string near <eof>", "字符串到代码结束时仍未结束" },
    { "unfinished long string near <eof>", "长字符串到代码结束时仍未结束" },
    { "unfinished long comment near <eof>", "长注释到代码结束时仍未结束" },
    { "unfinished long string near ([^\n]+)", "%1 附近有未结束的长字符串" },
    { "unfinished long comment near ([^\n]+)", "%1 附近有未结束的长注释" },
    { "unfinished string near ([^\n]+)", "%1 附近有未结束的字符串" },
    { "malformed number near ([^\n]+)", "%1 附近的数字格式错误" },
    { "([^%s:]+) expected near ([^\n]+)", "%2 附近缺少 %1" },
    { "stack traceback:", "调用栈：" },
    { "in main chunk", "在主代码块中" },
    { ": in function <([^>\n]+)>", ": 在函数 <%1> 中" },
    { ": in function '([^'\n]+)'", ": 在函数 '%1' 中" },
    { ": in local '([^'\n]+)'", ": 在局部函数 '%1' 中" },
    { ": in method '([^'\n]+)'", ": 在方法 '%1' 中" },
    { ": in field '([^'\n]+)'", ": 在字段 '%1' 中" },
    { ": in upvalue '([^'\n]+)'", ": 在上值函数 '%1' 中" },
    { ": in %?", ": 在 ? 中" },
    { "interrupted!", "已中断！" },
};

/* What the prompt shows for an error value that is no string. */
static const char *not_a_string(void)
{
    return SAY("(error object is not a string)", "（错误对象不是字符串）");
}

/* string.gsub(message on top of the stack, pattern, the value at replacement):
   the message replaced by the result, or left as it was if gsub fails. */
static void replace_all(lua_State *L, const char *pattern, int replacement)
{
    replacement = lua_absindex(L, replacement);
    lua_getfield(L, LUA_REGISTRYINDEX, GSUB_KEY);
    lua_pushvalue(L, -2);
    lua_pushstring(L, pattern);
    lua_pushvalue(L, replacement);
    if (lua_pcall(L, 3, 1, 0) == LUA_OK)
        lua_replace(L, -2);
    else
        lua_pop(L, 1);
}

/* Under zh, rewrites the message on top of the stack through lua_errors_zh
   (see there), then the type names they marked (\1type\2) through marked_name;
   in English it stays as Lua wrote it. */
void session_translate_error(lua_State *L)
{
    if (text_language[0] != 'z' || !lua_isstring(L, -1))
        return;
    for (size_t i = 0; i < sizeof lua_errors_zh / sizeof lua_errors_zh[0]; i++) {
        lua_pushstring(L, lua_errors_zh[i].zh);
        lua_insert(L, -2);
        replace_all(L, lua_errors_zh[i].pattern, -2);
        lua_remove(L, -2);
    }
    lua_pushcfunction(L, marked_name);
    lua_insert(L, -2);
    replace_all(L, "\001([^\002]*)\002", -2);
    lua_remove(L, -2);
}

/* core.explain_syntax_error(code, message): the message of code's syntax
   error, with a line on a Lua keyword written as a table key where it is one. */
static int core_explain_syntax_error(lua_State *L)
{
    const char *code = luaL_checkstring(L, 1);
    luaL_checkstring(L, 2);
    lua_settop(L, 2);
    explain_keyword_key(L, code);
    return 1;
}

/* core.error_text(message): the message as the prompt shows it (Chinese
   under zh), for errors that Lua code prints. */
static int core_error_text(lua_State *L)
{
    luaL_checkany(L, 1);
    lua_settop(L, 1);
    session_translate_error(L);
    return 1;
}

/* The watchdog of core.prompt_call: a call that runs past its limit is
   stopped as Ctrl-C stops one; a call that has not stopped when the limit
   has passed again ends the process with a TAP "Bail out!". */
static struct {
    lua_State *thread;            /* the call being watched */
    unsigned limit;               /* its limit in seconds */
    volatile sig_atomic_t fired;  /* how often the alarm went off for it */
} watchdog;

static void watchdog_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    lua_sethook(L, NULL, 0, 0);
    luaL_error(L, "stopped by the watchdog");
}

static void on_alarm(int signal_number)
{
    static const char bail_out[] = "Bail out! a call went on past twice its watchdog's limit\n";
    (void)signal_number;
    if (watchdog.fired++) {
        if (write(STDOUT_FILENO, bail_out, sizeof bail_out - 1) < 0)
            _exit(2);
        _exit(1);
    }
    interrupt_requested = 1;   /* the model and the backends stop at it */
    lua_sethook(watchdog.thread, watchdog_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
    alarm(watchdog.limit);
}

/* core.prompt_call(limit, fn, ...): calls fn(...) as the prompt calls a chunk,
   through the same message handler, on a thread of its own so that a
   traceback sees this call's frames only (for tests). After limit seconds
   (0: never) it is stopped as Ctrl-C would stop it. Returns "ok" and fn's
   results, "error" and the message the prompt prints, or "timeout". */
static int core_prompt_call(lua_State *L)
{
    lua_Integer limit = luaL_checkinteger(L, 1);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    luaL_argcheck(L, limit >= 0 && limit <= 3600, 1, "a limit from 0 to 3600 seconds");
    int nargs = lua_gettop(L) - 2;
    lua_State *thread = lua_newthread(L);
    lua_insert(L, 1);   /* keeps the thread alive */
    luaL_checkstack(thread, nargs + LUA_MINSTACK, "too many arguments");
    lua_xmove(L, thread, nargs + 1);
    struct sigaction action = { .sa_handler = on_alarm }, previous;
    sigemptyset(&action.sa_mask);
    watchdog.thread = thread;
    watchdog.limit = (unsigned)limit;
    watchdog.fired = 0;
    if (limit > 0) {
        sigaction(SIGALRM, &action, &previous);
        alarm(watchdog.limit);
    }
    int status = protected_call(thread, nargs, LUA_MULTRET);
    if (limit > 0) {
        alarm(0);
        sigaction(SIGALRM, &previous, NULL);
    }
    interrupt_clear(thread);
    if (watchdog.fired) {
        lua_pushliteral(L, "timeout");
        return 1;
    }
    if (status != LUA_OK) {
        session_translate_error(thread);
        const char *message = lua_tostring(thread, -1);
        lua_pushliteral(L, "error");
        lua_pushstring(L, message ? message : not_a_string());
        return 2;
    }
    int count = lua_gettop(thread);
    luaL_checkstack(L, count + 1, "too many results");
    lua_pushliteral(L, "ok");
    lua_xmove(thread, L, count);
    return count + 1;
}

static const luaL_Reg session_functions[] = {
    { "prompt_call", core_prompt_call },
    { "error_text", core_error_text },
    { "explain_syntax_error", core_explain_syntax_error },
    { NULL, NULL },
};

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
    session_translate_error(session.L);
    const char *message = lua_tostring(session.L, -1);
    if (!message)
        message = not_a_string();
    if (to_stderr)
        notice("%s", message);
    else
        out_printf(SAY("error: %s\n", "错误：%s\n"), message);
    lua_pop(session.L, 1);
}

/* Registers every embedded module in package.preload as "warplab.NAME" (its
   chunk named "=NAME", so messages and tracebacks say "chart:12:"), and the
   core table that open_core pushes as the module "warplab.core"; then
   requires the entry module, "warplab.main", which requires the rest. A
   module that does not compile is named before anything runs. */
static int load_lua_modules(lua_State *L, void (*open_core)(lua_State *L))
{
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    open_core(L);
    luaL_setfuncs(L, session_functions, 0);
    lua_setfield(L, -2, "warplab.core");
    lua_pop(L, 1);
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
    for (int i = 0; i < lua_modules_count; i++) {
        const char *name = lua_modules[i].name;
        char chunk_name[64];
        snprintf(chunk_name, sizeof chunk_name, "=%s", name);
        if (luaL_loadbuffer(L, lua_modules[i].text, strlen(lua_modules[i].text), chunk_name) != LUA_OK) {
            notice(SAY("the built-in %s module does not load: %s", "内置模块 %s 无法加载：%s"), name, lua_tostring(L, -1));
            return -1;
        }
        lua_pushfstring(L, "warplab.%s", name);
        lua_insert(L, -2);
        lua_settable(L, -3);
    }
    lua_pop(L, 1);
    lua_getglobal(L, "require");
    lua_pushliteral(L, "warplab.main");
    if (protected_call(L, 1, 0) != LUA_OK) {
        notice(SAY("the built-in modules failed: %s", "内置模块运行失败：%s"), lua_tostring(L, -1));
        return -1;
    }
    return 0;
}

/* A Lua error outside any protected call: say so before Lua aborts. */
static int on_panic(lua_State *L)
{
    notice(SAY("unprotected Lua error: %s", "未受保护的 Lua 错误：%s"), lua_tostring(L, -1) ? lua_tostring(L, -1) : SAY("(not a string)", "（不是字符串）"));
    return 0;
}

void session_use_profile(const struct device_profile *profile)
{
    session.options.profile = profile;
    if (!session.backend->measures) {   /* the model stands in for the device */
        int ordinal = session.device.ordinal;
        session.device = profile->info;
        session.device.ordinal = ordinal;
    }
}

int session_open(const struct backend *backend, const struct device_info *device, const char *backend_notice,
                 const struct device_profile *profile, void (*open_core)(lua_State *L))
{
    session.backend = backend;
    session.device = *device;
    snprintf(session.backend_notice, sizeof session.backend_notice, "%s", backend_notice);
    session.L = lua_newstate(sandbox_alloc, NULL);
    if (!session.L) {
        notice(SAY("cannot create the Lua state: out of memory", "无法创建 Lua 状态：内存不足"));
        return -1;
    }
    lua_atpanic(session.L, on_panic);
    luaL_openlibs(session.L);
    keep_translation_tools(session.L);
    session.options = (struct measure_options){ .warm = 0, .min_samples = 10, .budget_ms = 500, .check = 1, .counters = 1,
                                                 .kernel_timeout_s = 10 };
    session_use_profile(profile);
    interrupt_install(session.L);
    return load_lua_modules(session.L, open_core);
}

void session_close(void)
{
    if (session.backend)
        session.backend->close();
    if (session.L)
        lua_close(session.L);
    memset(&session, 0, sizeof session);
}
