#ifndef DICE_CSTACK_H
#define DICE_CSTACK_H

#include <stddef.h>

/*
 * Runs fn(argument) on this thread, on a stack of its own of `size` bytes (address space
 * reserved with mmap, pages used only as deep calls touch them, one guard page below),
 * then frees the stack and returns 0. Returns -1, without calling fn, when the stack cannot
 * be made or switching stacks is not supported here (off Linux).
 *
 * The command runs its work this way so that deep expressions end in their own limits'
 * errors, never in a stack overflow. A thread with a large stack does the same, but
 * starting and joining one costs about 0.35 ms of a 1.5 ms run of `dice -e 1d20`: a
 * second thread is woken on another core, and the process waits for it twice.
 * Not reentrant: one call at a time in a process.
 */
int dice_run_on_stack(size_t size, void (*fn)(void *), void *argument);

/*
 * Gives the memory the C library holds free back to the system (glibc's malloc_trim,
 * macOS's malloc_zone_pressure_relief; nothing elsewhere). The REPL calls it when a statement
 * abandoned by Ctrl-C has unwound: the allocator keeps what a large partial result freed
 * otherwise, and the session would stay as large as the statement made it.
 */
void dice_release_free_memory(void);

#endif
