/*
** disassemble.c — a CUBIN's machine code (SASS) through NVIDIA's
** disassembler: `nvdisasm -g`, started by the compile child under the
** compilers' limits (never through a shell), its listing (code, line
** information and data sections: constant bank 3) read by the emulator's
** sass_parse.c and handed to Lua as tables, or to the SASS engine. The program is the
** one configure found (NVDISASM_PATH), or WARPLAB_NVDISASM's (empty: none).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lauxlib.h>
#include "compile/device_compile.h"
#include "compile/disassemble.h"
#include "emulator/sass.h"
#include "support/text.h"

/* The disassembler to run, or NULL. */
static const char *disassembler(void)
{
    const char *chosen = getenv("WARPLAB_NVDISASM");
    if (chosen)
        return *chosen ? chosen : NULL;
#ifdef NVDISASM_PATH
    return NVDISASM_PATH;
#else
    return NULL;
#endif
}

static const char *no_disassembler(void)
{
    return SAY("no SASS disassembler here: warplab shows PTX only (build-aux/fetch-nvdisasm fetches NVIDIA's nvdisasm "
               "on Debian; then configure again, or set WARPLAB_NVDISASM to its path)",
               "这里没有 SASS 反汇编器：warplab 只能显示 PTX（在 Debian 上用 build-aux/fetch-nvdisasm 获取 NVIDIA 的 "
               "nvdisasm，然后重新运行 configure，或把 WARPLAB_NVDISASM 设为它的路径）");
}

static void set_string(lua_State *L, const char *key, const char *value)
{
    lua_pushstring(L, value);
    lua_setfield(L, -2, key);
}

static void set_integer(lua_State *L, const char *key, lua_Integer value)
{
    lua_pushinteger(L, value);
    lua_setfield(L, -2, key);
}

static void push_instruction(lua_State *L, const struct sass_listing *l, const struct sass_instruction *in)
{
    lua_createtable(L, 0, 10);
    set_integer(L, "offset", in->offset);
    set_string(L, "predicate", in->predicate);
    set_string(L, "opcode", in->opcode);
    set_string(L, "modifiers", in->modifiers);
    set_string(L, "operands", in->operands);
    set_integer(L, "line", in->line);
    if (in->line)
        set_string(L, "file", l->files[in->file]);
    if (in->space != SASS_NO_MEMORY) {
        set_string(L, "space", sass_space_name(in->space));
        set_string(L, "access", sass_access_name(in->access));
        set_integer(L, "bytes", in->bytes);
    }
}

/* {kernels = {{name=, instructions = {...}}, ...}} */
static void push_listing(lua_State *L, const struct sass_listing *l)
{
    lua_createtable(L, 0, 1);
    lua_createtable(L, l->kernel_count, 0);
    for (int k = 0; k < l->kernel_count; k++) {
        const struct sass_kernel *kernel = &l->kernels[k];
        lua_createtable(L, 0, 2);
        set_string(L, "name", kernel->name);
        lua_createtable(L, kernel->count, 0);
        for (int i = 0; i < kernel->count; i++) {
            push_instruction(L, l, &l->instructions[kernel->first + i]);
            lua_rawseti(L, -2, i + 1);
        }
        lua_setfield(L, -2, "instructions");
        lua_rawseti(L, -2, k + 1);
    }
    lua_setfield(L, -2, "kernels");
}

char *disassemble_cubin(const char *cubin, size_t size, char *why, size_t why_size)
{
    const char *program = disassembler();
    if (!program) {
        snprintf(why, why_size, "%s", no_disassembler());
        return NULL;
    }
    if (size < 4 || memcmp(cubin, "\177ELF", 4) != 0) {
        snprintf(why, why_size, "%s", SAY("not a CUBIN", "不是 CUBIN"));
        return NULL;
    }
    const char *argv[] = { program, "-g", "kernel.cubin", NULL };
    struct compile_job job = { .source = cubin, .source_size = size, .name = "kernel.cubin", .trusted = 1, .program = argv,
                               .output_file = "listing.txt", .output_on_stdout = 1 };
    struct compile_outcome outcome;
    compile_isolated(&job, &outcome);
    char *listing = NULL;
    if (outcome.status == COMPILED) {
        listing = outcome.output;
        outcome.output = NULL;
    } else {
        const char *log = outcome.log && *outcome.log ? outcome.log : SAY("no message", "没有消息");
        if (outcome.status == COMPILE_STOPPED)
            snprintf(why, why_size, "%s", log);
        else
            snprintf(why, why_size, SAY("the disassembler failed: %s", "反汇编器失败：%s"), log);
    }
    compile_outcome_free(&outcome);
    return listing;
}

/* The listing text's kernels and their instructions, and the text itself
   (what the SASS engine runs): 1 value pushed, or nil and why (2). */
static int push_read_listing(lua_State *L, const char *text, char *why, size_t why_size)
{
    struct sass_listing listing;
    if (text && sass_parse(text, &listing, why, why_size) == 0) {
        push_listing(L, &listing);
        lua_pushstring(L, text);
        lua_setfield(L, -2, "text");
        sass_free(&listing);
        return 1;
    }
    lua_pushnil(L);
    lua_pushstring(L, why);
    return 2;
}

/* core.disassemble(cubin): the CUBIN's kernels and their instructions, and
   the listing's text, or nil and why. */
static int core_disassemble(lua_State *L)
{
    size_t size;
    const char *cubin = luaL_checklstring(L, 1, &size);
    if (size < 4 || memcmp(cubin, "\177ELF", 4) != 0)
        return luaL_argerror(L, 1, SAY("a CUBIN expected", "应为 CUBIN"));
    char why[512];
    char *text = disassemble_cubin(cubin, size, why, sizeof why);
    int pushed = push_read_listing(L, text, why, sizeof why);
    free(text);
    return pushed;
}

/* core.read_listing(text): a listing's text (nvdisasm -g's) read as
   core.disassemble gives it, or nil and why. */
static int core_read_listing(lua_State *L)
{
    char why[512];
    return push_read_listing(L, luaL_checkstring(L, 1), why, sizeof why);
}

/* core.disassembler(): the disassembler's path, or nil and why there is none. */
static int core_disassembler(lua_State *L)
{
    const char *program = disassembler();
    if (program) {
        lua_pushstring(L, program);
        return 1;
    }
    lua_pushnil(L);
    lua_pushstring(L, no_disassembler());
    return 2;
}

const luaL_Reg disassemble_core[] = {
    { "disassemble", core_disassemble },
    { "read_listing", core_read_listing },
    { "disassembler", core_disassembler },
    { NULL, NULL },
};
