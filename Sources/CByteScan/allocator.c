#include "CByteScan.h"
#if defined(__has_include)
#if __has_include(<malloc.h>)
#include <malloc.h>
#endif
#endif

void ubs_tune_allocator(void) {
#if defined(M_ARENA_MAX) && defined(M_MMAP_THRESHOLD)
    mallopt(M_ARENA_MAX, 1);
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}
