/*
** text.c — the language of messages, names joined into a list, byte
** counts as students read them, and how far apart two names are.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "support/text.h"

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

const char *format_bytes(double bytes, char *buffer, size_t size)
{
    static const char *const units[] = { "B", "kB", "MB", "GB", "TB" };
    int unit = 0;
    while (bytes >= 1000 && unit < 4) {
        bytes /= 1000;
        unit++;
    }
    snprintf(buffer, size, unit == 0 ? "%.0f %s" : "%.1f %s", bytes, units[unit]);
    return buffer;
}

/* Levenshtein distance over two rows; names are short. */
int edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    int row[64], prev[64];
    if (la >= 63 || lb >= 63)
        return 99;
    for (size_t j = 0; j <= lb; j++)
        prev[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int replace = prev[j - 1] + (a[i - 1] != b[j - 1]);
            int insert = row[j - 1] + 1, remove = prev[j] + 1;
            int best = replace < insert ? replace : insert;
            row[j] = best < remove ? best : remove;
        }
        memcpy(prev, row, sizeof row);
    }
    return prev[lb];
}

char *copy_as_text(const char *data, size_t size)
{
    char *copy = malloc(size + 1);
    if (copy) {
        memcpy(copy, data, size);
        copy[size] = 0;
    }
    return copy;
}
