#include "CSignals.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t flags[4] = {0, 0, 0, 0};
static int terminal_fd = -1;
static pid_t original_group = -1;

int dice_interrupt_requested(void) { return flags[DICE_FLAG_INTERRUPT] != 0; }

void dice_set_interrupt_requested(int value) { flags[DICE_FLAG_INTERRUPT] = value != 0; }

int dice_take_signal_flag(int which) {
    if (which < 0 || which > DICE_FLAG_SUSPEND || !flags[which]) return 0;
    flags[which] = 0;
    return 1;
}

void dice_clear_terminal_signals(void) {
    flags[DICE_FLAG_CONTINUE] = 0;
    flags[DICE_FLAG_RESIZE] = 0;
    flags[DICE_FLAG_SUSPEND] = 0;
}

/* Only sets a flag, which is async-signal-safe; everything else happens in the reader. */
static void handler(int signo) {
    switch (signo) {
    case SIGINT: flags[DICE_FLAG_INTERRUPT] = 1; break;
    case SIGCONT: flags[DICE_FLAG_CONTINUE] = 1; break;
    case SIGWINCH: flags[DICE_FLAG_RESIZE] = 1; break;
    case SIGTSTP: flags[DICE_FLAG_SUSPEND] = 1; break;
    default: break;
    }
}

int dice_install_signal_handlers(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    if (sigaction(SIGINT, &action, NULL) != 0) return -1;
    if (sigaction(SIGCONT, &action, NULL) != 0) return -1;
    if (sigaction(SIGWINCH, &action, NULL) != 0) return -1;
    /*
     * In a process group of its own, a stopped REPL could never be continued: the shell
     * waits on (and continues) the group of the program that started it. Ctrl-Z is then
     * caught and ignored; the reader puts the terminal back in editing mode.
     */
    if (original_group >= 0 && sigaction(SIGTSTP, &action, NULL) != 0) return -1;
    return 0;
}

/* tcsetpgrp from a process group that is not in the foreground raises SIGTTOU. */
static int set_foreground(int fd, pid_t group) {
    sigset_t ttou, original;
    sigemptyset(&ttou);
    sigaddset(&ttou, SIGTTOU);
    sigprocmask(SIG_BLOCK, &ttou, &original);
    int result = tcsetpgrp(fd, group);
    sigprocmask(SIG_SETMASK, &original, NULL);
    return result;
}

void dice_give_back_terminal(void) {
    if (original_group < 0 || terminal_fd < 0) return;
    (void)set_foreground(terminal_fd, original_group);
}

int dice_take_terminal(int fd) {
    if (original_group >= 0) return 1;
    pid_t group = getpgrp();
    if (group == getpid() || tcgetpgrp(fd) != group) return 0;
    if (setpgid(0, 0) != 0) return 0;
    if (set_foreground(fd, getpid()) != 0) {
        (void)setpgid(0, group); /* back where it was: nothing changed */
        return 0;
    }
    terminal_fd = fd;
    original_group = group;
    atexit(dice_give_back_terminal);
    return 1;
}
