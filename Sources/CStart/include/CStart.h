#ifndef DICE_CSTART_H
#define DICE_CSTART_H

/*
 * The command line, for the Swift runtime, without its start-up scan (Linux with glibc).
 *
 * Every Swift program on Linux finds argv before main: a C++ global constructor in the
 * runtime's CommandLine.cpp reads /proc/self/maps with fgets and sscanf to find the stack,
 * then walks back from `environ` (about 54,000 instructions and three system calls, a fifth
 * of `dice --stats -e 3d6`). glibc hands every .init_array function argc and argv, so
 * start.c keeps them from one such function and defines, weakly, the runtime's
 * `_swift_stdlib_getUnsafeArgvArgc`, which CommandLine.arguments calls. In a static link
 * the runtime's object file is then never pulled from libswiftCore.a, and its constructor
 * never runs; should anything else pull it, its strong definition wins and nothing
 * changes. Elsewhere (not glibc, or the runtime in a shared library) it changes nothing.
 *
 * Nothing to call: the header exists for the module. dice_start_argument_count() says what
 * was captured (tests).
 */
int dice_start_argument_count(void);

#endif
