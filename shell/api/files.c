/*
** files.c — files written so that a failure never destroys what was there,
** and helper programs started without a shell. core.write_file writes a
** unique temporary file beside the target (mkstemp), checks every write,
** fsync and close, and only then renames it over the target; a failure
** removes the temporary and leaves the old file whole. Failures come back
** as `nil, "PATH: reason", errno`, as Lua's io.open reports them.
*/
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <lauxlib.h>
#include "api/files.h"
#include "paths.h"
#include "interrupt.h"
#include "output.h"
#include "api/session.h"

extern char **environ;

#define LOCK_METATABLE "warplab.lock"
#define FD_METATABLE "warplab.fd"

/* How long core.lock waits for another warplab before it gives up, and how often it looks. */
enum { LOCK_WAIT_MS = 10000, LOCK_POLL_MS = 5 };

/* Pushes nil, "path: reason" (strerror's, unless reason says otherwise) and the errno, as
   io.open does; returns 3, the count of values. */
static int push_failure(lua_State *L, const char *path, int error, const char *reason)
{
    lua_pushnil(L);
    lua_pushfstring(L, "%s: %s", path, reason ? reason : error_text(error));
    lua_pushinteger(L, error);
    return 3;
}

/* The path argument at index, refusing names with a NUL byte in them. */
static const char *check_path(lua_State *L, int index)
{
    size_t length;
    const char *path = luaL_checklstring(L, index, &length);
    luaL_argcheck(L, strlen(path) == length, index, SAY("file name contains a NUL byte", "文件名含有 NUL 字节"));
    return path;
}

/* fsync that accepts "this kind of file cannot be synced" (a terminal, a pipe, /dev/full). */
static int sync_file(int fd, int regular)
{
    if (fsync(fd) == 0 || (!regular && (errno == EINVAL || errno == EROFS)))
        return 0;
    return errno;
}

/* Closes fd and says whether that worked: 0, or the errno (a late write error shows here on NFS). */
static int close_checked(int fd)
{
    return close(fd) == 0 || errno == EINTR ? 0 : errno;
}

/* Writes a target that exists and is not a regular file (/dev/full, a fifo) in place: 0 or errno. */
static int write_in_place(const char *path, const char *text, size_t length)
{
    int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return errno;
    int error = write_all(fd, text, length);
    if (!error)
        error = sync_file(fd, 0);
    int closed = close_checked(fd);
    return error ? error : closed;
}

/* Syncs the folder a file was renamed into, so the rename itself survives a power cut. Best
   effort: the new file is in place already, and some file systems cannot sync folders. */
static void sync_folder(const char *folder)
{
    int fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

/* The permission bits a new file gets: the old file's, else 0666 less the umask. */
static mode_t new_file_mode(const struct stat *old, int exists)
{
    if (exists)
        return old->st_mode & 07777;
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

/* Writes text to a regular (or new) file at path through a temporary in its folder: 0 or errno. */
static int write_replacing(const char *path, const char *text, size_t length, const struct stat *old, int exists)
{
    size_t size = strlen(path) + sizeof "./..XXXXXX";   /* "./" + "." + base + ".XXXXXX" at most */
    char *temporary = malloc(size), *folder = malloc(size);
    if (!temporary || !folder) {
        free(temporary);
        free(folder);
        return ENOMEM;
    }
    const char *slash = strrchr(path, '/');
    if (slash)
        snprintf(folder, size, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    else
        snprintf(folder, size, ".");
    snprintf(temporary, size, "%s/.%s.XXXXXX", folder, slash ? slash + 1 : path);
    int error = 0, fd = mkostemp(temporary, O_CLOEXEC);
    if (fd < 0) {
        error = errno;
    } else {
        fchmod(fd, new_file_mode(old, exists));   /* permission bits are a nicety: not checked */
        error = write_all(fd, text, length);
        if (!error)
            error = sync_file(fd, 1);
        int closed = close_checked(fd);
        if (!error)
            error = closed;
        if (!error && rename(temporary, path) != 0)
            error = errno;
        if (error)
            unlink(temporary);
        else
            sync_folder(folder);
    }
    free(temporary);
    free(folder);
    return error;
}

/* core.write_file(path, text): true, or nil and "path: reason"; the old file stays whole on failure.
   A symbolic link is followed (the file it names is replaced, the link kept). */
static int core_write_file(lua_State *L)
{
    const char *path = check_path(L, 1);
    size_t length;
    const char *text = luaL_checklstring(L, 2, &length);
    char resolved[PATH_MAX];
    struct stat old;
    const char *target = path;
    if (lstat(path, &old) == 0 && S_ISLNK(old.st_mode) && realpath(path, resolved))
        target = resolved;
    int exists = stat(target, &old) == 0, error;
    if (exists && S_ISDIR(old.st_mode))
        error = EISDIR;
    else if (exists && !S_ISREG(old.st_mode))
        error = write_in_place(target, text, length);
    else
        error = write_replacing(target, text, length, &old, exists);
    if (error)
        return push_failure(L, path, error, NULL);
    lua_pushboolean(L, 1);
    return 1;
}

/* A file descriptor owned by a Lua value, so that an error while reading cannot leak it. */
static int *push_fd_box(lua_State *L)
{
    int *fd = lua_newuserdatauv(L, sizeof *fd, 0);
    *fd = -1;
    luaL_setmetatable(L, FD_METATABLE);
    return fd;
}

static int fd_box_gc(lua_State *L)
{
    int *fd = luaL_checkudata(L, 1, FD_METATABLE);
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
    return 0;
}

/* Opens path for reading; with a limit (0: none), a regular file only if it
   holds at most limit bytes, and a FIFO without waiting for a writer (then
   it reads as empty, never blocks). The descriptor goes into *fd and the
   file's size into *size; 0, or an errno (EFBIG: over the limit). */
static int open_to_read(const char *path, size_t limit, int *fd, off_t *size)
{
    struct stat info;
    *size = 0;
    *fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | (limit ? O_NONBLOCK : 0));
    if (*fd < 0)
        return errno;
    if (fstat(*fd, &info) != 0)
        return errno;
    *size = info.st_size;
    if (S_ISDIR(info.st_mode))
        return EISDIR;
    if (limit && S_ISREG(info.st_mode) && (size_t)info.st_size > limit)
        return EFBIG;
    if (limit)
        fcntl(*fd, F_SETFL, 0);   /* plain reads again */
    return 0;
}

/* Why open_to_read refused a file of file_size bytes, in words, or NULL for strerror's. */
static const char *refusal_text(int error, size_t limit, off_t file_size, char *text, size_t size)
{
    if (error == EISDIR)
        return SAY("is a directory", "是一个目录");
    if (error == EFBIG && limit) {
        char have[32], most[32];
        snprintf(text, size, SAY("is %s, over the limit of %s", "有 %s，超过上限 %s"),
                 format_bytes((double)file_size, have, sizeof have), format_bytes((double)limit, most, sizeof most));
        return text;
    }
    return NULL;
}

/* core.read_file(path [, limit]): the file's text, or nil and "path: reason"
   ("path: is a directory"). With a limit in bytes, a file that is larger is
   refused before it is read, what grows past it while read (a device) is
   refused too, and a FIFO without a writer reads as empty. */
static int core_read_file(lua_State *L)
{
    const char *path = check_path(L, 1);
    lua_Integer asked = luaL_optinteger(L, 2, 0);
    luaL_argcheck(L, asked >= 0, 2, SAY("a size limit in bytes, 0 or more", "字节数上限，不小于 0"));
    size_t limit = (size_t)asked, total = 0;
    int *fd = push_fd_box(L);
    char reason[128];
    off_t file_size;
    int refused = open_to_read(path, limit, fd, &file_size);
    if (refused)
        return push_failure(L, path, refused, refusal_text(refused, limit, file_size, reason, sizeof reason));
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (;;) {
        char *space = luaL_prepbuffer(&b);
        ssize_t got = read(*fd, space, LUAL_BUFFERSIZE);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int error = errno;
            luaL_pushresult(&b);
            return push_failure(L, path, error, NULL);
        }
        if (got == 0)
            break;
        luaL_addsize(&b, (size_t)got);
        if (limit && (total += (size_t)got) > limit) {   /* it grew while being read */
            luaL_pushresult(&b);
            return push_failure(L, path, EFBIG, SAY("grew over the limit while read", "读取时超过了上限"));
        }
    }
    close(*fd);
    *fd = -1;
    luaL_pushresult(&b);
    return 1;
}

/* core.realpath(path): the absolute path with no symbolic links, or nil and "path: reason". */
static int core_realpath(lua_State *L)
{
    const char *path = check_path(L, 1);
    char resolved[PATH_MAX];
    if (!realpath(path, resolved))
        return push_failure(L, path, errno, NULL);
    lua_pushstring(L, resolved);
    return 1;
}

/* core.make_folder(path): makes path and the folders above it that are
   missing (mkdir -p); true, or nil and "path: reason". */
static int core_make_folder(lua_State *L)
{
    char folder[PATH_MAX];
    snprintf(folder, sizeof folder, "%s", check_path(L, 1));
    if (make_folders(folder, 0755) != 0)
        return push_failure(L, folder, errno, NULL);
    lua_pushboolean(L, 1);
    return 1;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Adds {name=, folder=, link=, size=, mtime=} for path to the list on the top
   of the stack, if it is a folder or a regular file (through a symbolic link or
   not); mtime in seconds since 1970 (UTC), as the file system keeps it. */
static void add_entry(lua_State *L, const char *path, const char *name)
{
    struct stat info, own;
    if (stat(path, &info) != 0 || !(S_ISDIR(info.st_mode) || S_ISREG(info.st_mode)))
        return;
    int is_link = lstat(path, &own) == 0 && S_ISLNK(own.st_mode);
    lua_createtable(L, 0, 5);
    lua_pushstring(L, name);
    lua_setfield(L, -2, "name");
    lua_pushboolean(L, S_ISDIR(info.st_mode));
    lua_setfield(L, -2, "folder");
    lua_pushboolean(L, is_link);
    lua_setfield(L, -2, "link");
    lua_pushinteger(L, (lua_Integer)info.st_size);
    lua_setfield(L, -2, "size");
    lua_pushinteger(L, (lua_Integer)info.st_mtime);
    lua_setfield(L, -2, "mtime");
    lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
}

enum { MAX_FOLDER_ENTRIES = 4096 };   /* a folder of labs or of a class's submissions, not a disk */

/* core.folder_entries(folder): {name=, folder=, link=, size=} for each folder
   and regular file in folder (. and .. aside), sorted by name, and how many
   entries were left out past MAX_FOLDER_ENTRIES; an empty list when the folder
   cannot be read (it need not exist). `folder` and `size` are of what a
   symbolic link names; `link` says it is one, for callers that walk no links. */
static int core_folder_entries(lua_State *L)
{
    const char *folder = luaL_checkstring(L, 1);
    DIR *dir = opendir(folder);
    lua_newtable(L);
    if (!dir)
        return 1;
    char *names[MAX_FOLDER_ENTRIES];
    int count = 0;
    lua_Integer left_out = 0;
    for (struct dirent *entry; (entry = readdir(dir));) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
            continue;
        if (count == MAX_FOLDER_ENTRIES || !(names[count] = strdup(entry->d_name)))
            left_out++;
        else
            count++;
    }
    closedir(dir);
    qsort(names, count, sizeof names[0], by_name);
    for (int i = 0; i < count; i++) {
        char path[4096];
        if (snprintf(path, sizeof path, "%s/%s", folder, names[i]) < (int)sizeof path)
            add_entry(L, path, names[i]);
        else
            left_out++;
        free(names[i]);
    }
    lua_pushinteger(L, left_out);
    return 2;
}

/* core.program_path(): this program's own path (what a job script names to run it again). */
static int core_program_path(lua_State *L)
{
    const char *path = program_path();
    if (!path)
        return push_failure(L, "/proc/self/exe", errno, NULL);
    lua_pushstring(L, path);
    return 1;
}

/* core.chmod_executable(path): lets its owner, group and others run it (a job script). */
static int core_chmod_executable(lua_State *L)
{
    const char *path = check_path(L, 1);
    struct stat info;
    if (stat(path, &info) != 0 || chmod(path, info.st_mode | 0111) != 0)
        return push_failure(L, path, errno, NULL);
    lua_pushboolean(L, 1);
    return 1;
}

/* core.is_folder(path): whether path is a folder (following symbolic links). */
static int core_is_folder(lua_State *L)
{
    struct stat info;
    lua_pushboolean(L, stat(check_path(L, 1), &info) == 0 && S_ISDIR(info.st_mode));
    return 1;
}

/* core.find_program(name): where $PATH has an executable called name, or nil. A name with a
   '/' in it is taken as it is. */
static int core_find_program(lua_State *L)
{
    const char *name = check_path(L, 1), *search = getenv("PATH");
    char candidate[PATH_MAX];
    struct stat info;
    if (!*name) {
        lua_pushnil(L);
        return 1;
    }
    if (strchr(name, '/')) {
        if (stat(name, &info) == 0 && S_ISREG(info.st_mode) && access(name, X_OK) == 0)
            lua_pushstring(L, name);
        else
            lua_pushnil(L);
        return 1;
    }
    if (!search)
        search = "/usr/local/bin:/usr/bin:/bin";
    for (const char *start = search;; start++) {
        size_t length = strcspn(start, ":");
        int fits = snprintf(candidate, sizeof candidate, "%.*s/%s", length ? (int)length : 1,
                            length ? start : ".", name) < (int)sizeof candidate;
        if (fits && stat(candidate, &info) == 0 && S_ISREG(info.st_mode) && access(candidate, X_OK) == 0) {
            lua_pushstring(L, candidate);
            return 1;
        }
        start += length;
        if (!*start)
            break;
    }
    lua_pushnil(L);
    return 1;
}

/* The argument vector of core.spawn from the list at index 1, NULL-terminated, owned by Lua.
   Raw access only: no metamethod can hand out a string that is collected before the spawn. */
static char **check_argv(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer count = (lua_Integer)lua_rawlen(L, 1);
    luaL_argcheck(L, count >= 1, 1, SAY("a list of strings expected (the program, then its arguments)", "需要一个字符串列表（程序，然后是它的参数）"));
    char **argv = lua_newuserdatauv(L, (size_t)(count + 1) * sizeof *argv, 0);
    for (lua_Integer i = 1; i <= count; i++) {
        size_t length;
        if (lua_rawgeti(L, 1, i) != LUA_TSTRING)
            luaL_argerror(L, 1, lua_pushfstring(L, SAY("item %d is a %s, a string expected", "第 %d 项是 %s，需要字符串"), (int)i,
                                                TYPE_TEXT(L, -1)));
        argv[i - 1] = (char *)lua_tolstring(L, -1, &length);   /* the list keeps the string alive */
        if (strlen(argv[i - 1]) != length)
            luaL_argerror(L, 1, lua_pushfstring(L, SAY("item %d contains a NUL byte", "第 %d 项含有 NUL 字节"), (int)i));
        lua_pop(L, 1);
    }
    argv[count] = NULL;
    return argv;
}

/* The standard streams core.spawn's options may send to files: option name, descriptor, open flags. */
static const struct {
    const char *option;
    int fd, flags;
} redirections[] = {
    { "stdin", STDIN_FILENO, O_RDONLY },
    { "stdout", STDOUT_FILENO, O_WRONLY | O_CREAT | O_TRUNC },
    { "stderr", STDERR_FILENO, O_WRONLY | O_CREAT | O_TRUNC },
};
enum { REDIRECTIONS = sizeof redirections / sizeof redirections[0] };

/* The file names of the options table at index 2 (NULL where none), checked before anything
   is allocated. The names stay alive in the table. */
static void check_redirections(lua_State *L, const char *files[REDIRECTIONS])
{
    for (int i = 0; i < REDIRECTIONS; i++) {
        files[i] = NULL;
        if (lua_isnil(L, 2))
            continue;
        lua_pushstring(L, redirections[i].option);
        int type = lua_rawget(L, 2);   /* raw: the string must be the one the table keeps */
        if (type == LUA_TSTRING)
            files[i] = lua_tostring(L, -1);
        else if (type != LUA_TNIL)
            luaL_argerror(L, 2, lua_pushfstring(L, SAY("%s must be a file name, got %s", "%s 必须是文件名，实际为 %s"), redirections[i].option,
                                                TYPE_TEXT(L, -1)));
        lua_pop(L, 1);
    }
}

/* Waits for pid and pushes its exit status, or nil and how it died; returns the count of values. */
static int push_exit_status(lua_State *L, pid_t pid, const char *program)
{
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return push_failure(L, program, errno, NULL);
    if (WIFEXITED(status)) {
        lua_pushinteger(L, WEXITSTATUS(status));
        return 1;
    }
    lua_pushnil(L);
    lua_pushfstring(L, SAY("%s was killed by signal %d (%s)", "%s 被信号 %d 终止（%s）"), program, WTERMSIG(status),
                    strsignal(WTERMSIG(status)));
    return 2;
}

/* core.spawn(argv [, {stdin=, stdout=, stderr=}]): runs argv[1] (searched in $PATH) with the
   arguments argv[2..], no shell; waits and returns its exit status, or nil and a message.
   The options name files for the standard streams (stdout and stderr are truncated). */
static int core_spawn(lua_State *L)
{
    const char *files[REDIRECTIONS];
    lua_settop(L, 2);
    if (!lua_isnil(L, 2))
        luaL_checktype(L, 2, LUA_TTABLE);
    check_redirections(L, files);
    char **argv = check_argv(L);
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    sigset_t no_signals, defaults;
    sigemptyset(&no_signals);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGPIPE);
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    posix_spawnattr_setsigmask(&attributes, &no_signals);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    for (int i = 0; i < REDIRECTIONS; i++)
        if (files[i])
            posix_spawn_file_actions_addopen(&actions, redirections[i].fd, files[i], redirections[i].flags, 0666);
    pid_t pid;
    fflush(NULL);   /* what we printed comes before what the program prints */
    int error = posix_spawnp(&pid, argv[0], &actions, &attributes, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (error)
        return push_failure(L, argv[0], error, NULL);
    return push_exit_status(L, pid, argv[0]);
}

/* core.temporary_folder(): a new folder of this user's alone under $TMPDIR (or /tmp), for a
   helper program's files; or nil and why. The caller removes what it puts there, then it. */
static int core_temporary_folder(lua_State *L)
{
    const char *folder = getenv("TMPDIR");
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/warplab-XXXXXX", folder && *folder ? folder : "/tmp");
    if (!mkdtemp(path))
        return push_failure(L, path, errno, NULL);
    lua_pushstring(L, path);
    return 1;
}

/* Sleeps ms milliseconds (a signal may cut it short). */
static void sleep_ms(int ms)
{
    struct timespec pause = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&pause, NULL);
}

/* Takes the exclusive flock on fd, waiting for other processes while Ctrl-C is not pressed:
   0, or an errno (EWOULDBLOCK when it waited too long, EINTR after Ctrl-C). */
static int take_lock(int fd)
{
    for (int waited = 0;; waited += LOCK_POLL_MS) {
        if (flock(fd, LOCK_EX | LOCK_NB) == 0)
            return 0;
        if (errno != EWOULDBLOCK && errno != EINTR)
            return errno;
        if (interrupt_requested)
            return EINTR;
        if (waited >= LOCK_WAIT_MS)
            return EWOULDBLOCK;
        sleep_ms(LOCK_POLL_MS);
    }
}

/* core.lock(path): holds an exclusive lock on path (created if needed) until
   lock:unlock(), or until the lock object is closed or collected; or nil and "path: reason". */
static int core_lock(lua_State *L)
{
    const char *path = check_path(L, 1);
    int *fd = lua_newuserdatauv(L, sizeof *fd, 0);
    *fd = -1;
    luaL_setmetatable(L, LOCK_METATABLE);
    *fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY, 0600);
    if (*fd < 0 && (errno == EACCES || errno == EROFS))
        *fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);   /* a lock needs no write access */
    if (*fd < 0)
        return push_failure(L, path, errno, NULL);
    int error = take_lock(*fd);
    if (error) {
        close(*fd);
        *fd = -1;
        if (error == EWOULDBLOCK)
            return push_failure(L, path, error, SAY("another warplab held the lock for too long", "另一个 warplab 占用锁的时间过长"));
        return push_failure(L, path, error, error == EINTR ? SAY("interrupted", "被中断") : NULL);
    }
    return 1;
}

/* lock:unlock() (also __close and __gc): lets the other processes in. */
static int lock_unlock(lua_State *L)
{
    int *fd = luaL_checkudata(L, 1, LOCK_METATABLE);
    if (*fd >= 0)
        close(*fd);   /* closing the only descriptor releases the flock */
    *fd = -1;
    return 0;
}

static int lock_tostring(lua_State *L)
{
    int *fd = luaL_checkudata(L, 1, LOCK_METATABLE);
    lua_pushstring(L, *fd >= 0 ? "lock (held)" : "lock (released)");
    return 1;
}

static const luaL_Reg file_functions[] = {
    { "write_file", core_write_file },
    { "read_file", core_read_file },
    { "realpath", core_realpath },
    { "is_folder", core_is_folder },
    { "folder_entries", core_folder_entries },
    { "make_folder", core_make_folder },
    { "program_path", core_program_path },
    { "chmod_executable", core_chmod_executable },
    { "find_program", core_find_program },
    { "spawn", core_spawn },
    { "temporary_folder", core_temporary_folder },
    { "lock", core_lock },
    { NULL, NULL },
};

static const luaL_Reg lock_methods[] = {
    { "unlock", lock_unlock },
    { "__close", lock_unlock },
    { "__gc", lock_unlock },
    { "__tostring", lock_tostring },
    { NULL, NULL },
};

void files_open(lua_State *L)
{
    luaL_newmetatable(L, LOCK_METATABLE);
    luaL_setfuncs(L, lock_methods, 0);
    lua_pushvalue(L, -1);
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
    luaL_newmetatable(L, FD_METATABLE);
    lua_pushcfunction(L, fd_box_gc);
    lua_setfield(L, -2, "__gc");
    lua_pop(L, 1);
    luaL_setfuncs(L, file_functions, 0);
}
