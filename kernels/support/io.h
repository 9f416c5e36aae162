/*
** io.h — whole writes to a file descriptor.
*/
#ifndef WARPLAB_IO_H
#define WARPLAB_IO_H

#include <stddef.h>

/* Writes all of text to fd, through short writes and EINTR: 0, or the errno. */
int write_all(int fd, const char *text, size_t length);

#endif
