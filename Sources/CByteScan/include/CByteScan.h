#ifndef CBYTESCAN_H
#define CBYTESCAN_H
#include <stddef.h>

/* memrchr: glibc's where it exists (a GNU extension Swift's Glibc module does not export), else a loop. */
const void *ubs_memrchr(const void *haystack, int byte, size_t length);

/* A string to search for, text[offset ..< offset + length] of the `text` given with it, with the offsets of two of
 * its bytes to probe (choose rare ones: quotes and spaces are everywhere in JSON). Requires probe1 < probe2 < length. */
typedef struct {
    size_t offset;
    size_t length;
    size_t probe1;
    size_t probe2;
} ubs_needle;

/* The offset of the first occurrence of any of `count` (at most 8) needles (their bytes in `text`) in `haystack`, or
 * `length` when there is none. One pass: candidates are found 64 bytes at a time with AVX-512BW (32 with AVX2, else
 * 16 with SSE2) by the two probe bytes of each needle, then checked whole. Elsewhere it falls back to memmem. */
size_t ubs_find_any(const void *haystack, size_t length, const unsigned char *text, const ubs_needle *needles,
                    size_t count);

/* glibc's allocator set for a process of a few threads that frees large blocks while it runs: one arena for all
 * threads (glibc otherwise gives each thread that meets a locked arena its own, whose freed memory it keeps), and a
 * fixed threshold of 128 KiB above which a block is mapped on its own and returned when freed (glibc otherwise
 * raises the threshold to each mapped block freed, so later large blocks stay in the heap once freed). Nothing
 * elsewhere. */
void ubs_tune_allocator(void);

/* Unmaps the code pages of the program and its libraries from this process, which keeps running: they stay in the
 * page cache, and code run again is mapped back by a minor fault. Returns the bytes of code unmapped (0 where not
 * Linux). */
size_t ubs_release_program_code(void);

#endif
