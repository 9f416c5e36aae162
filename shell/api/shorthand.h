/*
** shorthand.h — the design card's `launch("strided", <stride=4>)`:
** a `<name=value, ...>` group in argument position means `{name=value, ...}`.
** Nothing else is rewritten.
*/
#ifndef WARPLAB_SHORTHAND_H
#define WARPLAB_SHORTHAND_H

/* Returns a malloc'd copy of code with each such group's brackets replaced
   by braces (same length), or NULL when out of memory. */
char *shorthand_expand(const char *code);

#endif
