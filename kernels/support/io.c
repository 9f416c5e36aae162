/*
** io.c — whole writes to a file descriptor.
*/
#include <errno.h>
#include <unistd.h>
#include "support/io.h"

int write_all(int fd, const char *text, size_t length)
{
    while (length > 0) {
        ssize_t written = write(fd, text, length);
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0)
            return written < 0 ? errno : EIO;
        text += written;
        length -= (size_t)written;
    }
    return 0;
}
