#include "CStack.h"

#include <stdlib.h> /* defines __GLIBC__ under glibc */

#if defined(__GLIBC__)
#include <malloc.h>

void dice_release_free_memory(void) { malloc_trim(0); }
#elif defined(__APPLE__)
#include <malloc/malloc.h>

void dice_release_free_memory(void) { malloc_zone_pressure_relief(NULL, 0); }
#else
void dice_release_free_memory(void) {}
#endif

#if defined(__linux__)
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

static ucontext_t caller;
static ucontext_t callee;
static void (*entry)(void *);
static void *entry_argument;

/* makecontext's functions take no pointer portably: the call goes through statics. */
static void trampoline(void) {
    entry(entry_argument);
    /* Returning resumes `caller` (uc_link). */
}

int dice_run_on_stack(size_t size, void (*fn)(void *), void *argument) {
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0 || size < (size_t)page || size > ((size_t)1 << 40)) return -1;
    size_t total = size + (size_t)page;
    void *base = mmap(NULL, total, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (base == MAP_FAILED) return -1;
    /* The lowest page stays unmapped for access: running off the stack faults there
       instead of writing over whatever lies below. */
    if (mprotect(base, (size_t)page, PROT_NONE) != 0 || getcontext(&callee) != 0) {
        munmap(base, total);
        return -1;
    }
    callee.uc_stack.ss_sp = (char *)base + page;
    callee.uc_stack.ss_size = size;
    callee.uc_link = &caller;
    entry = fn;
    entry_argument = argument;
    makecontext(&callee, trampoline, 0);
    if (swapcontext(&caller, &callee) != 0) {
        munmap(base, total);
        return -1;
    }
    munmap(base, total);
    return 0;
}

#else

int dice_run_on_stack(size_t size, void (*fn)(void *), void *argument) {
    (void)size;
    (void)fn;
    (void)argument;
    return -1;
}

#endif
