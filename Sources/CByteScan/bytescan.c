#define _GNU_SOURCE
#include <string.h>
#include "CByteScan.h"

const void *ubs_memrchr(const void *haystack, int byte, size_t length) {
    return memrchr(haystack, byte, length);
}

const void *ubs_memmem(const void *haystack, size_t length, const void *needle, size_t needle_length) {
    return memmem(haystack, length, needle, needle_length);
}
