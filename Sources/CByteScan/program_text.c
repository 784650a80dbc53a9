#define _GNU_SOURCE /* dl_iterate_phdr */
#include "CByteScan.h"

#if defined(__linux__)
#include <link.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

/* Every object's code: the program's, and that of the libraries start-up ran (the C++ runtime, the C library),
 * but not the kernel's vDSO, which is not a file. */
static int release_code_segments(struct dl_phdr_info *info, size_t size, void *released) {
    (void)size;
    if (info->dlpi_name != NULL && strstr(info->dlpi_name, "linux-vdso") != NULL) return 0;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        if (segment->p_type != PT_LOAD || !(segment->p_flags & PF_X) || (segment->p_flags & PF_W)) continue;
        uintptr_t start = (info->dlpi_addr + segment->p_vaddr) & ~(page - 1);
        uintptr_t end = (info->dlpi_addr + segment->p_vaddr + segment->p_memsz + page - 1) & ~(page - 1);
        if (madvise((void *)start, end - start, MADV_DONTNEED) == 0) *(size_t *)released += end - start;
    }
    return 0;
}
#endif

size_t ubs_release_program_code(void) {
    size_t released = 0;
#if defined(__linux__)
    dl_iterate_phdr(release_code_segments, &released);
#endif
    return released;
}
