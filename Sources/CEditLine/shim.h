#ifndef DICE_CEDITLINE_SHIM_H
#define DICE_CEDITLINE_SHIM_H
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <histedit.h>

/*
 * Non-variadic wrappers around libedit's variadic el_set/el_get/history, which
 * Swift cannot call, and the C globals the line editor needs (the standard
 * streams, the SIGINT flag). Only Sources/dice/LineEditor.swift may use them:
 * these are static inline, so every object file that calls them gets its own
 * copy, and the SIGINT flag below must exist exactly once.
 */

/* The standard streams, which Swift 6 flags as shared mutable state. */
static inline FILE *dice_stdin(void) { return stdin; }
static inline FILE *dice_stdout(void) { return stdout; }
static inline FILE *dice_stderr(void) { return stderr; }

/* MARK: - el_set / el_get */

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

/* MARK: - SIGINT */

/* The one flag the SIGINT handler sets; async-signal-safe by construction. */
static inline volatile sig_atomic_t *dice_interrupt_flag(void) {
    static volatile sig_atomic_t flag = 0;
    return &flag;
}

static inline void dice_sigint_handler(int signo) {
    (void)signo;
    *dice_interrupt_flag() = 1;
}

/* Volatile accessors, so Swift never caches the flag across a loop. */
static inline int dice_interrupt_requested(void) { return *dice_interrupt_flag() != 0; }
static inline void dice_set_interrupt_requested(int value) { *dice_interrupt_flag() = value != 0; }

/*
 * Installs dice_sigint_handler for SIGINT without SA_RESTART, so a read()
 * blocked in el_gets fails with EINTR and el_gets returns NULL with count -1.
 */
static inline int dice_install_sigint_handler(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = dice_sigint_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;
    return sigaction(SIGINT, &action, NULL);
}

#endif
