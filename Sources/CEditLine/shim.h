#ifndef DICE_CEDITLINE_SHIM_H
#define DICE_CEDITLINE_SHIM_H
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <unistd.h>
#include <wchar.h>
#include <histedit.h>

/*
 * Non-variadic wrappers around libedit's variadic el_set/el_get/history, which
 * Swift cannot call, the C globals the line editor needs (the standard streams,
 * the standard streams) and a key reader that notices Ctrl-C reliably. Only
 * Sources/dice/LineEditor.swift may use them. They are static inline, so every
 * object file that calls them gets its own copy: none of them keeps state.
 */

/* The standard streams, which Swift 6 flags as shared mutable state. */
static inline FILE *dice_stdin(void) { return stdin; }
static inline FILE *dice_stdout(void) { return stdout; }
static inline FILE *dice_stderr(void) { return stderr; }

/* MARK: - el_set / el_get */

/* An empty prompt that outlives every call, for a prompt callback with nothing better. */
static inline char *dice_empty_prompt(void) {
    static char empty[1] = {0};
    return empty;
}

static inline int dice_el_set_prompt(EditLine *el, char *(*prompt)(EditLine *)) {
    return el_set(el, EL_PROMPT, prompt);
}

static inline int dice_el_set_editor(EditLine *el, const char *mode) {
    return el_set(el, EL_EDITOR, mode);
}

static inline int dice_el_set_signal(EditLine *el, int handle) {
    return el_set(el, EL_SIGNAL, handle);
}

static inline int dice_el_set_history(EditLine *el, History *history_) {
    return el_set(el, EL_HIST, history, history_);
}

static inline int dice_el_set_clientdata(EditLine *el, void *data) {
    return el_set(el, EL_CLIENTDATA, data);
}

static inline void *dice_el_get_clientdata(EditLine *el) {
    void *data = NULL;
    if (el_get(el, EL_CLIENTDATA, &data) != 0) return NULL;
    return data;
}

/* 1: put the terminal in editing (raw) mode now; 0: back to its normal mode. */
static inline int dice_el_prepare_terminal(EditLine *el, int raw) {
    return el_set(el, EL_PREP_TERM, raw);
}

/* Adds a named editor function, e.g. "dice-complete". */
static inline int dice_el_add_function(EditLine *el, const char *name, const char *help,
                                       unsigned char (*function)(EditLine *, int)) {
    return el_set(el, EL_ADDFN, name, help, function);
}

/* The terminal's width in columns as libedit sees it; 80 if unknown. */
static inline int dice_el_columns(EditLine *el) {
    int columns = 0;
    if (el_get(el, EL_GETTC, "co", &columns, (void *)NULL) != 0 || columns <= 0) return 80;
    return columns;
}

/* Binds one key sequence ("^I") to a named editor function. */
static inline int dice_el_bind(EditLine *el, const char *keys, const char *function) {
    return el_set(el, EL_BIND, keys, function, (const char *)NULL);
}

/* MARK: - history */

static inline int dice_history_set_size(History *h, HistEvent *event, int size) {
    return history(h, event, H_SETSIZE, size);
}

static inline int dice_history_set_unique(History *h, HistEvent *event, int unique) {
    return history(h, event, H_SETUNIQUE, unique);
}

static inline int dice_history_enter(History *h, HistEvent *event, const char *line) {
    return history(h, event, H_ENTER, line);
}

/* MARK: - Signals */

/*
 * The signal flags live once, in Sources/CSignals/signals.c: static variables in these
 * static inline functions would exist once per object file. Declared here too (the same
 * prototypes as CSignals.h) for the reader below.
 */
#define DICE_FLAG_CONTINUE 1
#define DICE_FLAG_RESIZE 2
#define DICE_FLAG_SUSPEND 3
int dice_interrupt_requested(void);
int dice_take_signal_flag(int which);

/* MARK: - Reading keys */

/*
 * libedit's own reader calls read() and only notices SIGINT if the signal arrives
 * while read() is blocked; one arriving just before is lost and the line waits for the
 * next key. This reader closes that gap: SIGINT stays blocked from the flag check until
 * pselect() atomically unblocks it while waiting. On an interrupt it fails with EINTR,
 * which makes el_gets return NULL with count -1.
 *
 * libedit's handlers re-arm only when a line starts, so this also does what libedit's
 * reader does for later signals: after SIGCONT (fg after Ctrl-Z) it puts the terminal
 * back in editing mode and redraws the line; after SIGWINCH it takes the new size.
 */
static inline int dice_wait_for_input(EditLine *el, int fd) {
    sigset_t interrupt, original, waiting;
    sigemptyset(&interrupt);
    sigaddset(&interrupt, SIGINT);
    for (;;) {
        sigprocmask(SIG_BLOCK, &interrupt, &original);
        waiting = original;
        sigdelset(&waiting, SIGINT);
        int ready = 0;
        if (!dice_interrupt_requested()) {
            fd_set readable;
            FD_ZERO(&readable);
            FD_SET(fd, &readable);
            ready = pselect(fd + 1, &readable, NULL, NULL, NULL, &waiting);
        }
        int error = errno;
        sigprocmask(SIG_SETMASK, &original, NULL); /* a pending SIGINT is handled here */
        if (dice_interrupt_requested()) {
            errno = EINTR;
            return -1;
        }
        int suspended = dice_take_signal_flag(DICE_FLAG_SUSPEND);
        if (dice_take_signal_flag(DICE_FLAG_CONTINUE) || suspended) {
            el_set(el, EL_PREP_TERM, 0);
            el_set(el, EL_PREP_TERM, 1);
            el_set(el, EL_REFRESH);
        }
        if (dice_take_signal_flag(DICE_FLAG_RESIZE)) el_resize(el);
        if (ready > 0) return 0;
        if (ready < 0 && error != EINTR) {
            errno = error;
            return -1;
        }
    }
}

/* Reads one key from stdin, decoded with mbrtowc like libedit's reader; invalid bytes
 * are dropped. Returns 1, 0 at end of input, or -1 with errno (EINTR on Ctrl-C). */
static inline int dice_read_char(EditLine *el, wchar_t *out) {
    char bytes[MB_LEN_MAX];
    size_t count = 0;
    *out = L'\0';
    for (;;) {
        if (dice_wait_for_input(el, STDIN_FILENO) != 0) return -1;
        ssize_t got = read(STDIN_FILENO, bytes + count, 1);
        if (got < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            return -1;
        }
        if (got == 0) return 0;
        count += 1;
        mbstate_t state;
        memset(&state, 0, sizeof state);
        size_t decoded = mbrtowc(out, bytes, count, &state);
        if (decoded == (size_t)-2 && count < MB_LEN_MAX) continue; /* incomplete */
        if (decoded == (size_t)-1 || decoded == (size_t)-2) {
            count = 0;
            continue;
        }
        return 1;
    }
}

/* Makes el_gets read keys with dice_read_char (the editor must read stdin). */
static inline int dice_el_use_interruptible_reader(EditLine *el) {
    return el_set(el, EL_GETCFN, dice_read_char);
}

#endif
