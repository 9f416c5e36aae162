/*
** unit_shorthand.c — `<name=value>` in argument position becomes a table
** constructor, and nothing else changes.
*/
#include <stdlib.h>
#include "api/shorthand.h"
#include "../lib/tap.h"

static void expands(const char *code, const char *expected, const char *name)
{
    char *got = shorthand_expand(code);
    is_string(got, expected, name);
    free(got);
}

int main(void)
{
    expands("launch(\"strided\", <stride=4>)", "launch(\"strided\", {stride=4})", "the design card's form");
    expands("launch('offset',<offset = 1, n = 2^18>)", "launch('offset',{offset = 1, n = 2^18})", "several fields");
    expands("f(<a=g(1,2)>)", "f({a=g(1,2)})", "a call inside the group");
    expands("f(<a=(x > 1) and 1 or 2>)", "f({a=(x > 1) and 1 or 2})", "a comparison in parentheses");
    expands("f(<a=1>, <b=2>)", "f({a=1}, {b=2})", "two groups");
    expands("f(<a=h(<b=2>)>)", "f({a=h({b=2})})", "nested groups");
    expands("f(\n  <stride=4>\n)", "f(\n  {stride=4}\n)", "across lines");
    expands("print(a < b, c > d)", "print(a < b, c > d)", "a comparison is left alone");
    expands("print(x, <y == 1>)", "print(x, <y == 1>)", "== is not a field");
    expands("local t <const> = 5", "local t <const> = 5", "Lua attributes are left alone");
    expands("print(\"(<a=1>)\")", "print(\"(<a=1>)\")", "strings are left alone");
    expands("print([[(<a=1>)]])", "print([[(<a=1>)]])", "long strings are left alone");
    expands("x = 1 -- f(<a=1>)", "x = 1 -- f(<a=1>)", "comments are left alone");
    expands("--[==[ f(<a=1>) ]==] f(<a=1>)", "--[==[ f(<a=1>) ]==] f({a=1})", "after a long comment");
    expands("f(<a=1", "f(<a=1", "an unclosed group is left for Lua to report");
    expands("print(\"\\z\n(<a=1>)\")", "print(\"\\z\n(<a=1>)\")", "a string goes on over a line break after \\z");
    expands("print(\"\\\r\n(<a=1>)\")", "print(\"\\\r\n(<a=1>)\")", "and after a backslash before CR LF");
    return done();
}
