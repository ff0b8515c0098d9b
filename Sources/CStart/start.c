#include "CStart.h"

#include <stdlib.h> /* defines __GLIBC__ with glibc */

#if defined(__linux__) && defined(__GLIBC__)
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static int captured_count = -1;
static char **captured_vector;

/* Runs before every constructor without a priority (the runtime's C++ globals among them):
   glibc calls .init_array functions with main's argc, argv and envp. */
__attribute__((constructor(101))) static void capture(int argc, char **argv, char **envp) {
    (void)envp;
    if (argc >= 0 && argv != NULL) {
        captured_count = argc;
        captured_vector = argv;
    }
}

/* Never expected: /proc/self/cmdline, read once, split at its NULs. */
static char **read_command_line(int *count) {
    static char *empty[] = { NULL };
    *count = 0;
    int descriptor = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) return empty;
    size_t capacity = 4096, length = 0;
    char *bytes = malloc(capacity + 1);
    while (bytes != NULL) {
        ssize_t got = read(descriptor, bytes + length, capacity - length);
        if (got <= 0) break;
        length += (size_t)got;
        if (length == capacity) {
            char *grown = capacity < ((size_t)1 << 30) ? realloc(bytes, capacity * 2 + 1) : NULL;
            if (grown == NULL) { free(bytes); bytes = NULL; break; }
            bytes = grown;
            capacity *= 2;
        }
    }
    close(descriptor);
    if (bytes == NULL) return empty;
    bytes[length] = '\0';
    size_t arguments = 0;
    for (size_t i = 0; i < length; i++) if (bytes[i] == '\0') arguments++;
    if (length > 0 && bytes[length - 1] != '\0') arguments++;
    char **vector = calloc(arguments + 1, sizeof(char *));
    if (vector == NULL) { free(bytes); return empty; }
    size_t next = 0;
    for (size_t start = 0; start < length && next < arguments; next++) {
        vector[next] = bytes + start;
        start += strlen(bytes + start) + 1;
    }
    *count = (int)next;
    return vector;
}

/* The runtime's entry point (stdlib/public/CommandLineSupport), Swift's calling convention. */
__attribute__((weak, swiftcall)) char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
    if (captured_vector != NULL) {
        *outArgLen = captured_count;
        return captured_vector;
    }
    static char **read_vector;
    static int read_count;
    if (read_vector == NULL) read_vector = read_command_line(&read_count);
    *outArgLen = read_count;
    return read_vector;
}

int dice_start_argument_count(void) { return captured_count; }

#else

int dice_start_argument_count(void) { return -1; }

#endif
