/*
** gpu_lock.h — one GPU, many shells: an advisory lock per GPU, shared by every
** warplab process and user on the machine, held around each launch's timed
** samples and each counter batch, so that no two overlap.
*/
#ifndef WARPLAB_GPU_LOCK_H
#define WARPLAB_GPU_LOCK_H

/* Opens (creating if need be) the lock file of the GPU named by uuid, in
   $WARPLAB_LOCK_DIR or /tmp; 0, or -1 with why (then taking it does nothing). */
int gpu_lock_open(const char *uuid, char *why, size_t why_size);
/* Takes the lock, waiting while another process holds it and saying so on
   stderr with the time waited; 0, or -1 when Ctrl-C ended the wait. */
int gpu_lock_take(void);
void gpu_lock_release(void);
/* Lets the others have their turn: says this process waits, releases the lock,
   pauses a moment and takes it again; 0, or -1 when Ctrl-C ended the wait
   (the lock is then not held). */
int gpu_lock_yield(void);
/* 1 when another process is waiting for the lock (or yielded it to wait). */
int gpu_lock_others_waiting(void);
void gpu_lock_close(void);

#endif
