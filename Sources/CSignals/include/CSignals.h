#ifndef DICE_CSIGNALS_H
#define DICE_CSIGNALS_H

/*
 * The signal flags of the dice command, defined once in signals.c.
 *
 * They used to be static variables inside static inline functions in CEditLine's
 * shim.h; a release build compiles the module into several object files, each with its
 * own copy, so the handler set one copy and the polling read another: Ctrl-C never
 * stopped a long statement. Functions here are real (not inline), so every caller,
 * Swift or C, sees the same flags.
 */

#define DICE_FLAG_INTERRUPT 0 /* SIGINT */
#define DICE_FLAG_CONTINUE 1  /* SIGCONT: back from Ctrl-Z */
#define DICE_FLAG_RESIZE 2    /* SIGWINCH */
#define DICE_FLAG_SUSPEND 3   /* SIGTSTP, caught only while the command has its own process group */

/* Whether SIGINT arrived since the flag was last cleared. */
int dice_interrupt_requested(void);
void dice_set_interrupt_requested(int value);

/* Returns and clears one flag. */
int dice_take_signal_flag(int which);

/* Forgets a SIGCONT, SIGWINCH or SIGTSTP that came while no line was being read. */
void dice_clear_terminal_signals(void);

/*
 * Installs the flag-setting handler for SIGINT, SIGCONT and SIGWINCH (and SIGTSTP when
 * dice_take_terminal made a process group) for the life of the process, with SA_RESTART.
 * Returns 0, or -1 if sigaction failed.
 */
int dice_install_signal_handlers(void);

/*
 * When the command was started inside another program's foreground process group
 * (`make run`, `sh -c dice`), moves it into a process group of its own and makes that the
 * terminal's foreground group, so Ctrl-C reaches the REPL only, never the program that
 * started it. The terminal is given back at exit. Returns 1 if it did so, 0 when it was
 * already a group leader (started by a shell) or not in the foreground.
 */
int dice_take_terminal(int fd);

/* Gives the terminal back to the process group the command started in (see above). */
void dice_give_back_terminal(void);

#endif
