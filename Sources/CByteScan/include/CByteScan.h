#ifndef CBYTESCAN_H
#define CBYTESCAN_H
#include <stddef.h>

/* glibc's memrchr is a GNU extension that Swift's Glibc module does not export. */
const void *ubs_memrchr(const void *haystack, int byte, size_t length);

/* The first occurrence of `needle` in `haystack`, or NULL.
 * Candidates are found 16 or 32 bytes at a time by comparing two of the needle's bytes, at offsets
 * `probe1` < `probe2` (choose rare ones: quotes and spaces are everywhere in JSON), then checked whole.
 * On CPUs without SSE2 it falls back to memmem. */
const void *ubs_find(const void *haystack, size_t length, const void *needle, size_t needle_length,
                     size_t probe1, size_t probe2);

#endif
