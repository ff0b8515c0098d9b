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
 * the signal flags) and a key reader that notices Ctrl-C reliably. Only
 * Sources/dice/LineEditor.swift may use them: they are static inline, so every
 * object file that calls them gets its own copy, and the signal flags below
 * must exist exactly once.
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
 * Flags set by dice_signal_handler, one per signal the editor cares about. The handler
 * only sets a flag, which is async-signal-safe; everything else happens in the reader.
 */
#define DICE_FLAG_INTERRUPT 0 /* SIGINT */
#define DICE_FLAG_CONTINUE 1  /* SIGCONT: back from Ctrl-Z */
#define DICE_FLAG_RESIZE 2    /* SIGWINCH */

static inline volatile sig_atomic_t *dice_signal_flags(void) {
    static volatile sig_atomic_t flags[3] = {0, 0, 0};
    return flags;
}

static inline void dice_signal_handler(int signo) {
    switch (signo) {
    case SIGINT: dice_signal_flags()[DICE_FLAG_INTERRUPT] = 1; break;
    case SIGCONT: dice_signal_flags()[DICE_FLAG_CONTINUE] = 1; break;
    case SIGWINCH: dice_signal_flags()[DICE_FLAG_RESIZE] = 1; break;
    default: break;
    }
}

/* Volatile accessors, so Swift never caches the SIGINT flag across a loop. */
static inline int dice_interrupt_requested(void) {
    return dice_signal_flags()[DICE_FLAG_INTERRUPT] != 0;
}
static inline void dice_set_interrupt_requested(int value) {
    dice_signal_flags()[DICE_FLAG_INTERRUPT] = value != 0;
}

/* Forgets a SIGCONT or SIGWINCH that came while no line was being read. */
static inline void dice_clear_terminal_signals(void) {
    dice_signal_flags()[DICE_FLAG_CONTINUE] = 0;
    dice_signal_flags()[DICE_FLAG_RESIZE] = 0;
}

static inline int dice_take_signal_flag(int which) {
    if (!dice_signal_flags()[which]) return 0;
    dice_signal_flags()[which] = 0;
    return 1;
}

/*
 * Installs dice_signal_handler for SIGINT, SIGCONT and SIGWINCH for the life of the
 * process. SA_RESTART keeps the rest of the program (file and terminal I/O) free of
 * EINTR; the reader below waits in pselect(), which a signal always interrupts.
 * While el_gets runs, libedit's own handlers (EL_SIGNAL) come first: they switch the
 * terminal mode, then pass the signal on to these.
 */
static inline int dice_install_signal_handlers(void) {
    static const int signals[] = {SIGINT, SIGCONT, SIGWINCH};
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = dice_signal_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        if (sigaction(signals[i], &action, NULL) != 0) return -1;
    }
    return 0;
}

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
        if (dice_take_signal_flag(DICE_FLAG_CONTINUE)) {
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
