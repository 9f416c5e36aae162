/*
** text.c — the language of messages, and names joined into a list.
*/
#include <stdio.h>
#include "text.h"

char text_language[8] = "en";

const char *join_names(char *out, size_t size, int count, const char *(*name_at)(const void *list, int i),
                       const void *list)
{
    size_t used = 0;
    out[0] = 0;
    for (int i = 0; i < count && used < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s%s", i ? ", " : "", name_at(list, i));
    return out;
}
