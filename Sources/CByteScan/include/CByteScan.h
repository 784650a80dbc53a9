#ifndef CBYTESCAN_H
#define CBYTESCAN_H
#include <stddef.h>

/* glibc's memrchr and memmem are GNU extensions that Swift's Glibc module does not export. */
const void *ubs_memrchr(const void *haystack, int byte, size_t length);
const void *ubs_memmem(const void *haystack, size_t length, const void *needle, size_t needle_length);

#endif
