/*
** repl.c — terminal tests: drive the real warplab binary through a
** pseudo-terminal, as a person at the keyboard would, and check what the
** screen shows: prompts, results, Tab completion, Ctrl-C, colon commands
** and the history file. Each case runs in a fresh shell, so one that hangs
** or fails cannot spoil the next.
**
** Readline echoes what is typed and wraps each answer in terminal escapes
** (bracketed paste: "\e[?2004l\r3\r\n\e[?2004h> "), so a bare expect("4")
** would match the "2004" of an escape. Hence type_line() waits for the echo
** of its line first, and answers are matched with the "\r\n" that ends them.
*/
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "../lib/tap.h"

enum { TIMEOUT = 10, TAIL_BYTES = 400, ROWS = 24, COLUMNS = 80, BURST_LENGTH = 2000, GAP_BYTES = 64 };

static const char PROMPT[] = "> ", CONTINUATION_PROMPT[] = ">> ";
static const char CTRL_C[] = "\x03", CTRL_D[] = "\x04", TAB[] = "\t", UP_ARROW[] = "\x1b[A";

/* The shell under test and everything its terminal has shown. */
static struct {
    pid_t pid;
    int fd;              /* the master side of the pseudo-terminal */
    char *shown;         /* all output of this session, NUL-terminated */
    size_t length, capacity;
    size_t match_start;  /* where the last expect() found its text */
    size_t searched_to;  /* where that text ended: the next search starts here */
} shell;

/* One temporary folder holds HOME, XDG_STATE_HOME and an inputrc. */
static char temp_dir[] = "/tmp/warplab-repl-XXXXXX";
static char home_dir[64], state_dir[64], inputrc_path[80], history_path[96];
static const char *start_in;   /* the folder a case's shell starts in, when not this one */
static const char *start_lang; /* LC_ALL for a case's shell (zh_CN.UTF-8: Chinese), when not the tests' */

/* Seconds on a clock that never jumps. */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Sleeps for a fraction of a second. */
static void pause_for(double seconds)
{
    struct timespec t = { (time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9) };
    while (nanosleep(&t, &t) != 0 && errno == EINTR)
        ;
}

/* The binary under test: $WARPLAB (make check sets it), else ./warplab. */
static const char *warplab_path(void)
{
    const char *path = getenv("WARPLAB");
    return path && *path ? path : "./warplab";
}

/* Prints bytes with the control characters made visible: \r, \n, \e, \xNN. */
static void print_visible(const char *bytes, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        unsigned char c = (unsigned char)bytes[i];
        if (c == '\r')
            fputs("\\r", stdout);
        else if (c == '\n')
            fputs("\\n", stdout);
        else if (c == 0x1b)
            fputs("\\e", stdout);
        else if (c < 0x20 || c == 0x7f)
            printf("\\x%02x", c);
        else
            putchar(c);
    }
}

/* Prints the end of what the terminal showed as TAP diagnostics, a '# ' line per line. */
static void show_tail(void)
{
    size_t from = shell.length > TAIL_BYTES ? shell.length - TAIL_BYTES : 0;
    printf("#   the terminal showed (last %zu bytes):\n", shell.length - from);
    while (from < shell.length) {
        const char *end = memchr(shell.shown + from, '\n', shell.length - from);
        size_t count = end ? (size_t)(end - shell.shown) + 1 - from : shell.length - from;
        fputs("#     ", stdout);
        print_visible(shell.shown + from, count);
        putchar('\n');
        from += count;
    }
}

/* Appends bytes to what the terminal has shown. */
static void keep_output(const char *bytes, size_t count)
{
    if (shell.length + count + 1 > shell.capacity) {
        size_t capacity = shell.capacity ? shell.capacity : 4096;
        while (capacity < shell.length + count + 1)
            capacity *= 2;
        char *bigger = realloc(shell.shown, capacity);
        if (!bigger) {
            printf("Bail out! out of memory\n");
            exit(1);
        }
        shell.shown = bigger;
        shell.capacity = capacity;
    }
    memcpy(shell.shown + shell.length, bytes, count);
    shell.length += count;
    shell.shown[shell.length] = 0;
}

/* Waits until deadline for output and keeps it: 1 got some, 0 timed out, -1 the terminal closed. */
static int read_output(double deadline)
{
    char bytes[4096];
    for (;;) {
        double left = deadline - now();
        if (left <= 0)
            return 0;
        struct pollfd input = { .fd = shell.fd, .events = POLLIN };
        int ready = poll(&input, 1, (int)(left * 1000) + 1);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            return 0;
        ssize_t got = read(shell.fd, bytes, sizeof bytes);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1;   /* EIO: every process on the terminal has gone */
        keep_output(bytes, (size_t)got);
        return 1;
    }
}

/* Starts `warplab --sim` on a fresh 80x24 pseudo-terminal with the test's HOME and state folder. */
static int start(void)
{
    struct winsize size = { .ws_row = ROWS, .ws_col = COLUMNS };
    shell.length = shell.match_start = shell.searched_to = 0;
    keep_output("", 0);
    fflush(stdout);   /* the child must not inherit unwritten TAP lines */
    shell.pid = forkpty(&shell.fd, NULL, NULL, &size);
    if (shell.pid < 0) {
        printf("#   forkpty: %s\n", strerror(errno));
        return 0;
    }
    if (shell.pid == 0) {
        setenv("HOME", home_dir, 1);
        setenv("XDG_STATE_HOME", state_dir, 1);
        setenv("INPUTRC", inputrc_path, 1);   /* no /etc/inputrc: vi mode there would break us */
        setenv("TERM", "xterm", 1);
        unsetenv("XDG_DATA_HOME");   /* progress under the temporary HOME */
        unsetenv("LINES");
        unsetenv("COLUMNS");
        unsetenv("WARPLAB_TEST_KERNELS");   /* the kernel list a user sees */
        if (start_in && chdir(start_in) != 0)
            _exit(127);
        if (start_lang)
            setenv("LC_ALL", start_lang, 1);
        execl(warplab_path(), "warplab", "--sim", (char *)NULL);
        fprintf(stderr, "cannot run %s: %s\n", warplab_path(), strerror(errno));
        _exit(127);
    }
    return 1;
}

/* Types text into the terminal. */
static int send(const char *text)
{
    size_t left = strlen(text);
    while (left > 0) {
        ssize_t wrote = write(shell.fd, text, left);
        if (wrote < 0 && errno == EINTR)
            continue;
        if (wrote <= 0) {
            printf("#   cannot type into the terminal: %s\n", strerror(errno));
            return 0;
        }
        text += wrote;
        left -= (size_t)wrote;
    }
    return 1;
}

/* Where text occurs after the previous match, or NULL. */
static const char *find_after_last_match(const char *text)
{
    return memmem(shell.shown + shell.searched_to, shell.length - shell.searched_to, text, strlen(text));
}

/* Reads output until text appears after the previous match; says what came instead when it does not within seconds. */
static int expect(const char *text, double seconds)
{
    double deadline = now() + seconds;
    const char *found;
    int outcome = 1;
    while ((found = find_after_last_match(text)) == NULL && outcome > 0)
        outcome = read_output(deadline);
    if (found) {
        shell.match_start = (size_t)(found - shell.shown);
        shell.searched_to = shell.match_start + strlen(text);
        return 1;
    }
    fputs("#   expected \"", stdout);
    print_visible(text, strlen(text));
    if (outcome < 0)
        printf("\" but warplab closed the terminal\n");
    else
        printf("\" but it did not come within %g s\n", seconds);
    show_tail();
    return 0;
}

/* Waits for the shell to exit, reading what it still prints, and kills it after seconds.
   Returns its exit status, 128 + the signal that ended it, or -1 when it had to be killed. */
static int finish(double seconds)
{
    double deadline = now() + seconds;
    int status = 0;
    pid_t exited;
    if (shell.pid <= 0)
        return -1;   /* it never started */
    while ((exited = waitpid(shell.pid, &status, WNOHANG)) == 0 && now() < deadline)
        if (read_output(now() + 0.05 < deadline ? now() + 0.05 : deadline) < 0)
            pause_for(0.01);
    while (exited > 0 && read_output(now() + 0.2) > 0)
        ;   /* what it wrote just before exiting is still in the terminal: read it all */
    if (exited == 0) {
        printf("#   warplab did not exit within %g s; killed it\n", seconds);
        show_tail();
        kill(shell.pid, SIGKILL);
        waitpid(shell.pid, &status, 0);
    }
    close(shell.fd);
    shell.pid = 0;   /* reaped: never signal that number again */
    if (exited <= 0)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Starts a shell and waits for its first prompt. */
static int start_at_prompt(void)
{
    return start() && expect(PROMPT, TIMEOUT);
}

/* The shell's exit status once the steps before it went well; when they did not, kills it and gives -1. */
static int exit_status_after(int steps_passed)
{
    if (!steps_passed) {
        if (shell.pid > 0)
            kill(shell.pid, SIGKILL);
        finish(TIMEOUT);
        return -1;
    }
    return finish(TIMEOUT);
}

/* Ends a case's shell with Ctrl-D, or a kill when the case failed.
   Whether the case passed and the shell then exited with status 0. */
static int close_session(int passed)
{
    int status = exit_status_after(passed && send(CTRL_D));
    if (passed && status != 0)
        printf("#   warplab exited with status %d after Ctrl-D\n", status);
    return passed && status == 0;
}

/* The state letter in /proc/PID/stat (R running, S sleeping, ...), or 0 when there is no /proc. */
static char process_state(pid_t pid)
{
    char path[64], line[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *file = fopen(path, "r");
    if (!file)
        return 0;
    size_t length = fread(line, 1, sizeof line - 1, file);
    fclose(file);
    line[length] = 0;
    const char *name_end = strrchr(line, ')');   /* the command name may hold spaces */
    return name_end && name_end[1] == ' ' ? name_end[2] : 0;
}

/* Waits (a second at most) until the shell sleeps, i.e. sits in select() for the next key.
   Readline echoes a key before it returns to select(), and a Ctrl-C that lands in between
   is lost at the prompt and stops the next command instead (see the report). */
static void wait_until_idle(void)
{
    double deadline = now() + 1;
    char state;
    while ((state = process_state(shell.pid)) != 'S' && state != 0 && now() < deadline)
        pause_for(0.005);
    if (state == 0)
        pause_for(0.2);   /* no /proc: a pause has to do */
}

/* Types a line and Enter, then waits for its echo, so that what follows is the shell's answer. */
static int type_line(const char *line)
{
    char echo[256];
    snprintf(echo, sizeof echo, "%s\r\n", line);
    return send(line) && send("\r") && expect(echo, TIMEOUT);
}

/* Whether typing line shows a line of output ending in answer, then the prompt again. */
static int gives(const char *line, const char *answer)
{
    char answer_line[256];
    snprintf(answer_line, sizeof answer_line, "%s\r\n", answer);
    return type_line(line) && expect(answer_line, TIMEOUT) && expect(PROMPT, TIMEOUT);
}

/* How many line ends the terminal showed from offset up to the last match. */
static int lines_since(size_t offset)
{
    int count = 0;
    for (size_t i = offset; i < shell.match_start; i++)
        count += shell.shown[i] == '\n';
    return count;
}

/* Whether the file at path contains text. */
static int file_contains(const char *path, const char *text)
{
    char content[65536];
    FILE *file = fopen(path, "r");
    if (!file) {
        printf("#   cannot open %s: %s\n", path, strerror(errno));
        return 0;
    }
    size_t length = fread(content, 1, sizeof content - 1, file);
    fclose(file);
    content[length] = 0;
    if (strstr(content, text))
        return 1;
    printf("#   %s does not contain \"%s\"; it holds:\n#     ", path, text);
    print_visible(content, length);
    putchar('\n');
    return 0;
}

/* Waits for the main prompt "> ", and not the ">> " that asks for more of a chunk. */
static int expect_main_prompt(void)
{
    if (!expect(PROMPT, TIMEOUT))
        return 0;
    if (shell.match_start > 0 && shell.shown[shell.match_start - 1] == '>') {
        printf("#   expected the main prompt \"> \" but the shell still asks for more with \">> \"\n");
        show_tail();
        return 0;
    }
    return 1;
}

/* How many line ends the terminal showed from offset to the end of its output. */
static int lines_after(size_t offset)
{
    int count = 0;
    for (size_t i = offset; i < shell.length; i++)
        count += shell.shown[i] == '\n';
    return count;
}

/* Types line and keeps in gap the bytes shown between its echo and answer: escapes only, no line end. */
static int answer_gap(const char *line, const char *answer, char *gap, size_t size)
{
    char answer_line[256];
    snprintf(answer_line, sizeof answer_line, "%s\r\n", answer);
    if (!type_line(line))
        return 0;
    size_t echo_end = shell.searched_to;
    if (!expect(answer_line, TIMEOUT))
        return 0;
    size_t length = shell.match_start - echo_end;
    if (length >= size)
        length = size - 1;
    memcpy(gap, shell.shown + echo_end, length);
    gap[length] = 0;
    return expect(PROMPT, TIMEOUT);
}

/* Whether /proc says the shell holds a Ctrl-C that it has blocked and not yet handled (0 when there is no /proc). */
static int sigint_held_blocked(pid_t pid)
{
    char path[64], line[256];
    unsigned long long pending = 0, blocked = 0, value, sigint = 1ull << (SIGINT - 1);
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *file = fopen(path, "r");
    if (!file)
        return 0;
    while (fgets(line, sizeof line, file)) {
        if (sscanf(line, "SigPnd: %llx", &value) == 1 || sscanf(line, "ShdPnd: %llx", &value) == 1)
            pending |= value;
        else if (sscanf(line, "SigBlk: %llx", &value) == 1)
            blocked = value;
    }
    fclose(file);
    return (pending & sigint) && (blocked & sigint);
}

/* Types a burst of 'a's and Ctrl-C pause seconds after, while readline is likely still busy with them. */
static int interrupt_burst(double pause)
{
    char burst[BURST_LENGTH + 1];
    memset(burst, 'a', BURST_LENGTH);
    burst[BURST_LENGTH] = 0;
    if (!send(burst))
        return 0;
    if (pause > 0)
        pause_for(pause);
    return send(CTRL_C);
}

/* Case 1: the banner, then the prompt. */
static void test_banner_and_prompt(void)
{
    int passed = start() && expect("warplab 0.1", TIMEOUT) && expect(PROMPT, TIMEOUT);
    ok(close_session(passed), "the banner shows warplab 0.1, then the prompt");
}

/* Case 2: an expression prints its value. */
static void test_expression_prints_value(void)
{
    ok(close_session(start_at_prompt() && gives("1+2", "3")), "1+2 prints 3");
}

/* Case 2b: lua.c's habits: `=expr` prints expr, and several values print on one line, tab-separated. */
static void test_lua_c_printing(void)
{
    ok(close_session(start_at_prompt() && gives("=2^3", "8.0") && gives("return 1, 2", "1\t2") && gives("1, \"a\"", "1\t\"a\"")),
       "=2^3 prints 8.0, and return 1, 2 prints 1<tab>2 on one line, as lua.c does");
}

/* Case 2c (issue 31, item 11): statements whose last one is an expression
   print it, as lua.c prints a line's expression; a loop's body does not. */
static void test_last_statement_prints(void)
{
    int passed = start_at_prompt() && gives("x = 20; x + 1", "21") &&
                 gives("t = {1, 2}; table.concat(t, \"+\")", "\"1+2\"") &&
                 gives("local a = 3; string.rep(\"ab\", a)", "\"ababab\"") &&
                 gives("for i = 1, 2 do x = x + i end; x", "23");
    ok(close_session(passed), "x = 20; x + 1 prints 21, and a line of statements ending in a call prints what it returns");
}

/* Case 2e (issue 31, item 11): kernel{} typed at the prompt says in one
   line what it declared and how to run it, rather than echoing its name;
   a string that happens to be the name prints as a string. */
static void test_kernel_confirmation(void)
{
    int passed = start_at_prompt() &&
                 type_line("kernel{name = \"twice\", source = [[extern \"C\" __global__ void twice(float *a, int n) "
                           "{ int i = threadIdx.x; if (i < n) a[i] *= 2; }]], params = {n = {default = 32}}, "
                           "buffers = {a = {type = \"float\", count = \"n\", output = true}}, args = {\"a\", \"n\"}, grid = 1, block = 32}") &&
                 expect("kernel 'twice' declared (params: n; buffers: a): launch(\"twice\") runs it\r\n", 60) &&
                 expect(PROMPT, TIMEOUT) && gives("\"twice\"", "\"twice\"") &&
                 type_line("name = kernel{name = \"twice\", source = [[extern \"C\" __global__ void twice(float *a, int n) {}]], "
                           "params = {n = {default = 32}}, buffers = {a = {type = \"float\", count = \"n\"}}, args = {\"a\", \"n\"}, "
                           "grid = 1, block = 32}") && expect(PROMPT, 60) && gives("name", "\"twice\"");
    ok(close_session(passed), "kernel{} at the prompt prints one line naming what it declared and how to run it; its name stays its value");
}

/* Case 2f (issue 31, item 7): a kernel that never ends, emulated: after a
   few seconds the bar asks whether it is an endless loop and says Ctrl-C
   stops it, and Ctrl-C does, back to the prompt. Its loop is an atomic add
   of every lane, slow to emulate, so that the budget of its first blocks
   (which ends a lighter loop in a few seconds) is not reached first. */
static void test_endless_kernel(const char *lang, const char *hint, const char *interrupted)
{
    char declaration[512], path[300], line[340];
    snprintf(path, sizeof path, "%s/spin.lua", temp_dir);   /* typed as one short line: a long one wraps its echo */
    snprintf(declaration, sizeof declaration,
             "kernel{name = \"spin\", source = [[extern \"C\" __global__ void spin(int *a, int n) "
             "{ while (atomicAdd(&a[threadIdx.x %% 32], n) != -1) ; }]], params = {n = {default = 1}}, "
             "buffers = {a = {type = \"int\", count = 32, fill = \"zero\"}}, args = {\"a\", \"n\"}, grid = 1024, block = 1024}\n");
    FILE *file = fopen(path, "w");
    int written = file && fputs(declaration, file) >= 0;
    if (file)
        fclose(file);
    snprintf(line, sizeof line, "dofile(\"%s\")", path);
    start_lang = lang;
    int passed = written && start_at_prompt() && type_line(line) &&
                 expect(PROMPT, 60) && type_line("launch(\"spin\")") &&
                 expect(hint, 3 * TIMEOUT) && send(CTRL_C) &&
                 expect(interrupted, TIMEOUT) && expect(PROMPT, TIMEOUT) && gives("1+1", "2");
    start_lang = NULL;
    if (!passed)
        show_tail();
    ok(close_session(passed), lang ? "... and in Chinese: 死循环？Ctrl-C 可以停止"
                                   : "an endless emulated kernel: the bar says after a few seconds that Ctrl-C stops it, and Ctrl-C does");
}

/* Case 2d (issue 31, item 15): a list of results prints card after card,
   each under its place in the list, a blank line between. */
static void test_result_list_prints_cards(void)
{
    int passed = start_at_prompt() && type_line("rs = launch(\"copy\", {{n = 1024}, {n = 2048}}); rs") &&
                 expect("[1 of 2]\r\ncopy  n=1,024", TIMEOUT) && expect("\r\n\r\n[2 of 2]\r\ncopy  n=2,048", TIMEOUT) &&
                 expect(PROMPT, TIMEOUT);
    ok(close_session(passed), "a list of two results prints two cards, [1 of 2] and [2 of 2], a blank line between");
}

/* Case 3: an unfinished chunk asks for more with >> and runs once complete. */
static void test_multi_line_input(void)
{
    int passed = start_at_prompt() && type_line("function f(x)") && expect(CONTINUATION_PROMPT, TIMEOUT) &&
                 type_line("return x*2") && expect(CONTINUATION_PROMPT, TIMEOUT) &&
                 type_line("end") && expect(PROMPT, TIMEOUT) && gives("f(21)", "42");
    ok(close_session(passed), "a function typed over three lines with >> prompts, then f(21) prints 42");
}

/* Case 4a: Tab completes a kernel name inside launch(" and closes the quote. */
static void test_complete_kernel_name(void)
{
    int passed = start_at_prompt() && send("launch(\"stri") && send(TAB) &&
                 expect("launch(\"strided\"", TIMEOUT) &&
                 send(", {n=1024}).load.sectors_per_request\r") && expect("4.0\r\n", TIMEOUT) &&
                 expect(PROMPT, TIMEOUT);
    ok(close_session(passed), "Tab completes launch(\"stri to launch(\"strided\", which runs");
}

/* Case 2c: a single launch over a second shows a bar with its seconds on stderr, erased when it ends. */
static void test_long_launch_shows_progress(void)
{
    int passed = start_at_prompt() && type_line("launch(\"gather\", {n = 1 << 27}).load.requests") &&
                 expect("launches [", TIMEOUT) && expect(" s ", TIMEOUT) && expect("8388608\r\n", 3 * TIMEOUT) &&
                 expect(PROMPT, TIMEOUT);
    ok(close_session(passed), "a launch of a few seconds shows a progress bar with its seconds, then its value");
}

/* Case 4a2: Tab completes a kernel's param name inside its {, and a param's choice inside quotes. */
static void test_complete_params(void)
{
    int passed = start_at_prompt() && send("launch(\"strided\", {stri") && send(TAB) &&
                 expect("launch(\"strided\", {stride", TIMEOUT) && send(" = 4, load = \"l") && send(TAB) &&
                 expect("load = \"ldg\"", TIMEOUT) && send(", n = 1024}).load.sectors_per_request\r") &&
                 expect("16.0\r\n", TIMEOUT) && expect(PROMPT, TIMEOUT);
    ok(close_session(passed), "Tab completes {stri to {stride and load = \"l to load = \"ldg, which runs");
}

/* Case 4a3: Tab completes a lab's name after :lab. */
static void test_complete_lab_name(void)
{
    int passed = start_at_prompt() && send(":lab coal") && send(TAB) && expect(":lab coalescing ", TIMEOUT) &&
                 send("\r") && expect("Coalescing", TIMEOUT) && expect(PROMPT, TIMEOUT);
    ok(close_session(passed), "Tab completes :lab coal to :lab coalescing, which opens it");
}

/* Case 4b: Tab completes a Lua global. */
static void test_complete_global(void)
{
    int passed = start_at_prompt() && send("kernels") && send("()\r") && expect("strided", TIMEOUT) &&
                 expect(PROMPT, TIMEOUT) && send("devi") && send(TAB) && expect("device", TIMEOUT) &&
                 send("().name\r") && expect("H200", TIMEOUT) && expect(PROMPT, TIMEOUT);
    ok(close_session(passed), "kernels() lists strided; Tab completes devi to device, and device().name names the H200");
}

/* Case 5: the <...> shorthand for a parameter table. */
static void test_shorthand(void)
{
    int passed = start_at_prompt() &&
                 gives("launch(\"strided\", <stride=4, n=1024>).load.sectors_per_request", "16.0");
    ok(close_session(passed), "launch(\"strided\", <stride=4, n=1024>) gives 16.0 sectors/request");
}

/* Whether what the shell showed from offset to the last match is one
   message: a single "error:", no traceback, every line within the terminal's
   width (a message longer than a line is wrapped, at word boundaries). */
static int one_message_since(size_t offset)
{
    int errors = 0, column = 0, widest = 0;
    for (size_t i = offset; i < shell.match_start; i++) {
        errors += strncmp(shell.shown + i, "error:", 6) == 0;
        if (strncmp(shell.shown + i, "traceback", 9) == 0)
            return 0;
        column = shell.shown[i] == '\n' || shell.shown[i] == '\r' ? 0 : column + 1;
        widest = column > widest ? column : widest;
    }
    return errors == 1 && widest <= COLUMNS;
}

/* Case 6: a bad call reports one message, wrapped to the terminal, and the shell goes on. */
static void test_error_is_one_line(void)
{
    int passed = start_at_prompt() && type_line("launch(\"strided2\")");
    size_t answer_start = shell.searched_to;
    passed = passed && expect("unknown kernel 'strided2'", TIMEOUT) && expect(PROMPT, TIMEOUT);
    if (passed && !one_message_since(answer_start)) {
        printf("#   the error is not one message within %d columns (%d lines)\n", COLUMNS, lines_since(answer_start));
        show_tail();
        passed = 0;
    }
    passed = passed && gives("1+1", "2");
    ok(close_session(passed), "launch(\"strided2\") gives one error message, wrapped at 80 columns, then 1+1 prints 2");
}

/* Case 7: Ctrl-C stops a running Lua loop. */
static void test_ctrl_c_stops_loop(void)
{
    int passed = start_at_prompt() && type_line("while true do end");
    pause_for(0.3);   /* let the loop start */
    passed = passed && send(CTRL_C) && expect("interrupted!", TIMEOUT) && expect(PROMPT, TIMEOUT) &&
             gives("2+2", "4");
    ok(close_session(passed), "Ctrl-C stops while true do end with interrupted!, then 2+2 prints 4");
}

/* Case 8: Ctrl-C at the prompt throws the half-typed line away. */
static void test_ctrl_c_discards_line(void)
{
    int passed = start_at_prompt() && send("abc") && expect("abc", TIMEOUT);
    wait_until_idle();
    passed = passed && send(CTRL_C) && expect(PROMPT, TIMEOUT) && gives("3+3", "6");
    ok(close_session(passed), "Ctrl-C at the prompt discards abc, then 3+3 prints 6");
}

/* Case 9: a colon command in a fresh shell shows expected. */
static void test_colon_command(const char *command, const char *expected, const char *name)
{
    int passed = start_at_prompt() && type_line(command) && expect(expected, TIMEOUT) &&
                 expect(PROMPT, TIMEOUT);
    ok(close_session(passed), name);
}

/* Case 10: a line typed in one session is in the history file and comes back with Up in the next. */
static void test_history_persists(void)
{
    int typed = start_at_prompt() && type_line("x_hist = 99") && expect(PROMPT, TIMEOUT) && send(CTRL_D);
    is_int(exit_status_after(typed), 0, "Ctrl-D at the prompt leaves with status 0");
    ok(file_contains(history_path, "x_hist = 99"), "the history file holds x_hist = 99");
    int recalled = start_at_prompt() && send(UP_ARROW) && expect("x_hist = 99", TIMEOUT) && send("\r") &&
                   expect(PROMPT, TIMEOUT) && gives("x_hist", "99");
    ok(close_session(recalled), "Up in a new session recalls x_hist = 99, which runs again");
}

/* Case 11: :quit leaves with status 0. */
static void test_quit(void)
{
    is_int(exit_status_after(start_at_prompt() && type_line(":quit")), 0, ":quit leaves with status 0");
}

/* Case 12: a Ctrl-C right behind a burst of typing is never lost, nor left to stop the next command.
   The pauses spread the Ctrl-C over the time readline spends on the burst, where select() lost it. */
static void test_ctrl_c_after_burst(void)
{
    static const double pauses[] = { 0, 0.0005, 0.001, 0.0015, 0.002 };
    int passed = start_at_prompt();
    for (size_t i = 0; passed && i < sizeof pauses / sizeof pauses[0]; i++) {
        passed = interrupt_burst(pauses[i]) && expect_main_prompt() && gives("1+1", "2");
        if (!passed)
            printf("#   that was Ctrl-C number %zu, %g ms after %d a's%s\n", i + 1, pauses[i] * 1000, BURST_LENGTH,
                   sigint_held_blocked(shell.pid) ? "; warplab holds it pending with SIGINT blocked" : "");
    }
    if (passed && memmem(shell.shown, shell.length, "interrupted!", strlen("interrupted!"))) {
        printf("#   a Ctrl-C at the prompt stopped a command with interrupted!\n");
        show_tail();
        passed = 0;
    }
    ok(close_session(passed), "Ctrl-C right after 2000 typed a's gives the prompt back, then 1+1 prints 2 (5 times)");
}

/* Case 13: Ctrl-D at >> drops the unfinished chunk, and the next answer shows as any other does. */
static void test_ctrl_d_at_continuation(void)
{
    char normal_gap[GAP_BYTES], gap_after_ctrl_d[GAP_BYTES];
    int passed = start_at_prompt() && answer_gap("1+1", "2", normal_gap, sizeof normal_gap) &&
                 type_line("function g()") && expect(CONTINUATION_PROMPT, TIMEOUT) && send(CTRL_D) &&
                 expect_main_prompt() && answer_gap("1+1", "2", gap_after_ctrl_d, sizeof gap_after_ctrl_d);
    if (passed && (strcmp(gap_after_ctrl_d, normal_gap) != 0 || strchr(gap_after_ctrl_d, '\n'))) {
        fputs("#   between the echo of 1+1 and its answer, a normal answer shows \"", stdout);
        print_visible(normal_gap, strlen(normal_gap));
        fputs("\"\n#   but after Ctrl-D at >> the terminal showed \"", stdout);
        print_visible(gap_after_ctrl_d, strlen(gap_after_ctrl_d));
        fputs("\"\n", stdout);
        show_tail();
        passed = 0;
    }
    ok(close_session(passed), "Ctrl-D at >> goes back to >, and 1+1 then prints 2 with no blank line before it");
}

/* Case 14: Ctrl-D at the prompt leaves with status 0 and ends the prompt's line once, with no blank line. */
static void test_ctrl_d_ends_with_one_newline(void)
{
    int started = start_at_prompt();
    size_t prompt_end = shell.searched_to;
    is_int(exit_status_after(started && send(CTRL_D)), 0, "Ctrl-D at a fresh prompt leaves with status 0");
    int newlines = started ? lines_after(prompt_end) : -1;
    if (started && newlines != 1)
        show_tail();
    is_int(newlines, 1, "Ctrl-D at the prompt prints exactly one newline after it");
}

/* Case 15: a chunk typed over three lines comes back whole with one Up in the next session. */
static void test_multi_line_history(void)
{
    int typed = start_at_prompt() && type_line("function g(x)") && expect(CONTINUATION_PROMPT, TIMEOUT) &&
                type_line("return x+1") && expect(CONTINUATION_PROMPT, TIMEOUT) && type_line("end") &&
                expect_main_prompt() && send(CTRL_D);
    is_int(exit_status_after(typed), 0, "a session that defines g over three lines leaves with status 0");
    int recalled = start_at_prompt() && send(UP_ARROW) && expect("function g(x)", TIMEOUT) &&
                   expect("return x+1", TIMEOUT) && expect("end", TIMEOUT) && send("\r") &&
                   expect_main_prompt() && gives("g(1)", "2");
    ok(close_session(recalled), "one Up in a new session recalls the whole three-line g, which runs: g(1) prints 2");
}

/* Case 16: Ctrl-C during a sweep stops it after the current launch and keeps what was measured;
   the progress bar shows on the terminal's stderr once a second has passed. */
static void test_ctrl_c_during_sweep(void)
{
    int passed = start_at_prompt() && type_line("s = sweep(\"offset\", {offset = range(0, 63)})") &&
                 expect("launches [", TIMEOUT);   /* the bar, after a second of launches */
    passed = passed && send(CTRL_C) && expect("stopped by Ctrl-C after", TIMEOUT) && expect(PROMPT, TIMEOUT);
    passed = passed && type_line("print(#s > 0 and #s < 64, s.interrupted)") && expect("true\ttrue\r\n", TIMEOUT) &&
             expect(PROMPT, TIMEOUT) && gives("1+1", "2");
    ok(close_session(passed), "Ctrl-C during a sweep keeps the partial results and the prompt comes back");
}

/* How many processes the shell under test has started and not yet waited for (0 without /proc). */
static int children_of_shell(void)
{
    DIR *proc = opendir("/proc");
    int count = 0;
    for (struct dirent *item; proc && (item = readdir(proc)) != NULL;) {
        char path[300], stat_line[512];
        snprintf(path, sizeof path, "/proc/%s/stat", item->d_name);
        FILE *file = item->d_name[0] >= '1' && item->d_name[0] <= '9' ? fopen(path, "r") : NULL;
        size_t length = file ? fread(stat_line, 1, sizeof stat_line - 1, file) : 0;
        if (file)
            fclose(file);
        stat_line[length] = 0;
        const char *after_name = strrchr(stat_line, ')');   /* "PID (NAME) STATE PPID ..." */
        char state;
        int parent;
        if (after_name && sscanf(after_name + 1, " %c %d", &state, &parent) == 2 && parent == shell.pid)
            count++;
    }
    if (proc)
        closedir(proc);
    return count;
}

/* Case 17: Ctrl-C while a kernel compiles (a macro that takes NVRTC or clang minutes) ends the
   compile, not the shell: one line, the prompt, no compiler left running, and the shell goes on. */
static void test_ctrl_c_during_compile(void)
{
    int passed = start_at_prompt() &&
                 type_line("s = {\"#define A0 x+\"} for i = 1, 22 do s[#s + 1] = (\"#define A%d A%d A%d\"):format(i, i - 1, i - 1) end") &&
                 expect(PROMPT, TIMEOUT) &&
                 type_line("kernel{name = \"bomb\", source = table.concat(s, \"\\n\") .. \"\\n__global__ void bomb(int *p) { int x = 1; p[0] = A22 0; }\", buffers = {p = {type = \"int\", count = 1}}, args = {\"p\"}, grid = 1, block = 1}");
    /* the compile child is at work once it shows: on a loaded machine that may take seconds */
    int children = 0;
    for (double waited = 0; passed && waited < 3 * TIMEOUT && (children = children_of_shell()) == 0; waited += 0.1)
        pause_for(0.1);
    pause_for(0.5);
    size_t answer_start = shell.searched_to;
    if (passed && children != 1) {
        printf("#   %d processes under the shell while it compiled, not 1 (the compile child)\n", children);
        show_tail();
        passed = 0;
    }
    passed = passed && send(CTRL_C) && expect("compile interrupted\r\n", TIMEOUT) && expect(PROMPT, TIMEOUT);
    if (!passed)
        show_tail();
    if (passed && lines_since(answer_start) > 2) {
        printf("#   Ctrl-C took %d lines, not 1\n", lines_since(answer_start));
        show_tail();
        passed = 0;
    }
    for (double waited = 0; passed && waited < TIMEOUT && children_of_shell() != 0; waited += 0.1)
        pause_for(0.1);   /* the child is reaped, not waited for by a sleep */
    if (passed && children_of_shell() != 0) {
        printf("#   the compile child is still there %d s after Ctrl-C\n", TIMEOUT);
        passed = 0;
    }
    passed = passed && gives("2+2", "4");
    ok(close_session(passed), "Ctrl-C during a compile that would run for minutes: one line, the prompt, no child left, then 2+2 prints 4");
}

/* Whether one of the session records in the state folder (session-*.jsonl) contains text. */
static int journal_contains(const char *text)
{
    char folder[128], path[512];
    snprintf(folder, sizeof folder, "%s/warplab", state_dir);
    DIR *dir = opendir(folder);
    struct dirent *item;
    int found = 0;
    while (dir && !found && (item = readdir(dir)) != NULL) {
        if (strncmp(item->d_name, "session-", 8) != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", folder, item->d_name);
        FILE *file = fopen(path, "r");
        char content[65536];
        size_t length = file ? fread(content, 1, sizeof content - 1, file) : 0;
        if (file)
            fclose(file);
        content[length] = 0;
        found = strstr(content, text) != NULL;
    }
    if (dir)
        closedir(dir);
    if (!found)
        printf("#   no session record in %s contains \"%s\"\n", folder, text);
    return found;
}

/* Case 19: every session keeps its own record as it goes: inputs, what they
   printed, results and lab answers; a session killed with SIGKILL loses nothing. */
static void test_session_journal(void)
{
    int passed = start() && expect("This session is kept as it goes in", TIMEOUT) && expect(PROMPT, TIMEOUT) &&
                 type_line("x_journal = 41 + 1") && expect(PROMPT, TIMEOUT) &&
                 type_line("print(x_journal)") && expect("42", TIMEOUT) && expect(PROMPT, TIMEOUT);
    if (shell.pid > 0)
        kill(shell.pid, SIGKILL);
    finish(TIMEOUT);
    ok(passed && journal_contains("\"code\":\"x_journal = 41 + 1\"") && journal_contains("\"printed\":\"42\\n\""),
       "the session record keeps each input and what it printed, even when the shell is killed");
    ok(journal_contains("\"command\":\":answer 4\"") && journal_contains("\"verdict\":\"right\"") &&
       journal_contains("\"command\":\":run\""),
       "... and a lab's colon commands with each answer's verdict (from the lab case)");
}

/* Case 17: record() keeps the commands typed and their results, to hand in. */
static void test_record(void)
{
    char path[160], command[200];
    snprintf(path, sizeof path, "%s/session.json", temp_dir);
    snprintf(command, sizeof command, "record(\"%s\")", path);
    int passed = start_at_prompt() && type_line(command) && expect(PROMPT, TIMEOUT) &&
                 type_line("r = launch(\"offset\", {offset = 1, n = 4096})") && expect(PROMPT, TIMEOUT) &&
                 type_line("r.load.sectors") && expect(PROMPT, TIMEOUT) &&
                 type_line("record()") && expect(PROMPT, TIMEOUT);
    ok(close_session(passed) && file_contains(path, "\"code\": \"r.load.sectors\"") &&
       file_contains(path, "\"values\"") && file_contains(path, "\"device\"") &&
       file_contains(path, "\"results\"") && file_contains(path, "\"printed\"") &&
       file_contains(path, "\"code\": \"r = launch(\\\"offset\\\", {offset = 1, n = 4096})\""),
       "record() writes the commands, what they printed, the results they made and the device");
}

/* Case 18: a lab at the prompt: open it, answer wrong, ask for a hint, answer right, move on,
   quit, and come back to the same step in a new session. */
static void test_lab_flow(void)
{
    int passed = start_at_prompt() && type_line(":lab tour") && expect("step 1 of 8", TIMEOUT) &&
                 expect(PROMPT, TIMEOUT) && type_line(":run") && expect("loads", TIMEOUT) && expect(PROMPT, TIMEOUT) &&
                 type_line(":answer 7") && expect("Not quite (attempt 1)", TIMEOUT) && expect(PROMPT, TIMEOUT) &&
                 type_line(":hint") && expect("The number before", TIMEOUT) && expect(PROMPT, TIMEOUT) &&
                 type_line(":answer 4") && expect("Correct.", TIMEOUT) && expect(":next goes on.", TIMEOUT) &&
                 expect(PROMPT, TIMEOUT) &&
                 type_line(":next") && expect("step 2 of 8", TIMEOUT) && expect(PROMPT, TIMEOUT) &&
                 send(UP_ARROW) && expect("r = launch(\"copy\", {n = 1 << 20}); r.load.requests", TIMEOUT) &&
                 send("\r") && expect("32768", TIMEOUT) && expect(PROMPT, TIMEOUT) &&
                 type_line(":quit");
    int quit_status = exit_status_after(passed);
    int resumed = start_at_prompt() && type_line(":lab tour") && expect("step 2 of 8", TIMEOUT) &&
                  expect(PROMPT, TIMEOUT) && type_line(":where") && expect("Lab tour, step 2 of 8", TIMEOUT) &&
                  expect(PROMPT, TIMEOUT);
    ok(passed && quit_status == 0 && close_session(resumed),
       "a lab at the prompt: :lab, :run, a wrong :answer, :hint, the right one (saying :next), :next, Up recalls "
       "the step's experiment, :quit, then resumed at step 2");
}

/* Copies tests/labs/hostile/NAME (from $srcdir) into the temporary folder; whether it could. */
static int copy_hostile_lab(const char *name)
{
    char from[4096], to[256], text[65536];
    const char *srcdir = getenv("srcdir");
    snprintf(from, sizeof from, "%s/tests/labs/hostile/%s", srcdir && *srcdir ? srcdir : ".", name);
    snprintf(to, sizeof to, "%s/%s", temp_dir, name);
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    size_t length = in ? fread(text, 1, sizeof text, in) : 0;
    int copied = out && fwrite(text, 1, length, out) == length;
    if (in)
        fclose(in);
    if (out && fclose(out) != 0)
        copied = 0;
    if (!copied)
        printf("#   cannot copy %s to %s\n", from, to);
    return copied;
}

/* Case 19: a lab's experiment padded so that its payload sits off screen:
   Up shows the padding as a count and the payload beside it, and Enter on
   the line as offered runs it as the lab's code, in its sandbox, as :run does. */
static void test_offered_line_is_sandboxed(void)
{
    char sentinel[128];
    snprintf(sentinel, sizeof sentinel, "%s/HISTORY_ESCAPED", temp_dir);
    start_in = temp_dir;   /* where the payload would leave its file */
    int passed = copy_hostile_lab("padded-history.lua") && start_at_prompt() &&
                 type_line(":lab padded-history.lua") && expect("step 1 of 1", TIMEOUT) && expect(PROMPT, TIMEOUT) &&
                 send(UP_ARROW) && expect("180; os.execute(", TIMEOUT) &&
                 send("\r") && expect("a nil value", TIMEOUT) && expect("'os')", TIMEOUT) && expect(PROMPT, TIMEOUT);
    start_in = NULL;
    passed = close_session(passed);
    int escaped = access(sentinel, F_OK) == 0;
    if (escaped)
        printf("#   the payload ran with full rights: %s exists\n", sentinel);
    ok(passed && !escaped, "Up, Enter on a lab's padded experiment: the padding shown as a count, the line run in the lab's sandbox");
}

/* Fills the temporary folder: HOME with an inputrc; the state folder is left for warplab to create. */
static int make_home(void)
{
    snprintf(home_dir, sizeof home_dir, "%s/home", temp_dir);
    snprintf(state_dir, sizeof state_dir, "%s/state", temp_dir);
    snprintf(inputrc_path, sizeof inputrc_path, "%s/inputrc", home_dir);
    snprintf(history_path, sizeof history_path, "%s/warplab/history", state_dir);
    if (mkdir(home_dir, 0700) != 0)
        return 0;
    FILE *inputrc = fopen(inputrc_path, "w");
    if (!inputrc)
        return 0;
    fputs("# warplab's terminal tests: readline's defaults only\n", inputrc);
    return fclose(inputrc) == 0;
}

/* nftw callback: removes one file or (emptied) folder. */
static int remove_entry(const char *path, const struct stat *info, int type, struct FTW *where)
{
    (void)info;
    (void)type;
    (void)where;
    return remove(path);
}

/* Removes the temporary folder and everything in it. */
static void remove_temp_dirs(void)
{
    if (nftw(temp_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
        printf("# could not remove %s: %s\n", temp_dir, strerror(errno));
}

/* Whether this system can give us a pseudo-terminal at all. */
static int have_pty(void)
{
    int fd = posix_openpt(O_RDWR | O_NOCTTY);
    if (fd < 0)
        return 0;
    close(fd);
    return 1;
}

int main(void)
{
    if (!have_pty()) {
        printf("1..0 # SKIP no pseudo-terminal: %s\n", strerror(errno));
        return 0;
    }
    if (access(warplab_path(), X_OK) != 0) {
        printf("Bail out! cannot run %s: %s\n", warplab_path(), strerror(errno));
        return 1;
    }
    if (!mkdtemp(temp_dir)) {
        printf("Bail out! cannot make a temporary folder %s: %s\n", temp_dir, strerror(errno));
        return 1;
    }
    if (!make_home()) {
        printf("Bail out! cannot make a HOME in %s: %s\n", temp_dir, strerror(errno));
        remove_temp_dirs();
        return 1;
    }
    test_banner_and_prompt();
    test_expression_prints_value();
    test_lua_c_printing();
    test_last_statement_prints();
    test_kernel_confirmation();
    test_endless_kernel(NULL, "an endless loop? Ctrl-C stops it", "interrupted!");
    test_endless_kernel("zh_CN.UTF-8", "死循环？Ctrl-C 可以停止", "已中断！");
    test_result_list_prints_cards();
    test_long_launch_shows_progress();
    test_multi_line_input();
    test_complete_kernel_name();
    test_complete_params();
    test_complete_lab_name();
    test_complete_global();
    test_shorthand();
    test_error_is_one_line();
    test_ctrl_c_stops_loop();
    test_ctrl_c_discards_line();
    test_colon_command(":k", "offset", ":k lists the kernels");
    test_colon_command(":help", ":quit", ":help lists the commands");
    test_colon_command(":zz", "unknown command", ":zz says unknown command");
    test_history_persists();
    test_quit();
    test_ctrl_c_after_burst();
    test_ctrl_d_at_continuation();
    test_ctrl_d_ends_with_one_newline();
    test_multi_line_history();
    test_ctrl_c_during_sweep();
    test_ctrl_c_during_compile();
    test_record();
    test_lab_flow();
    test_offered_line_is_sandboxed();
    test_session_journal();
    remove_temp_dirs();
    free(shell.shown);
    return done();
}
