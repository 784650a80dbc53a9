#define _GNU_SOURCE
#include <string.h>
#include "CByteScan.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

const void *ubs_memrchr(const void *haystack, int byte, size_t length) {
    return memrchr(haystack, byte, length);
}

#if defined(__x86_64__)
/* Checks one block's candidate bits against the whole needle. */
static inline const unsigned char *verify(const unsigned char *block, unsigned mask, const unsigned char *needle,
                                          size_t needle_length) {
    while (mask) {
        unsigned bit = (unsigned)__builtin_ctz(mask);
        if (memcmp(block + bit, needle, needle_length) == 0) return block + bit;
        mask &= mask - 1;
    }
    return NULL;
}

__attribute__((target("avx2")))
static const void *find_avx2(const unsigned char *h, size_t n, const unsigned char *needle, size_t k,
                             size_t p1, size_t p2) {
    const __m256i b1 = _mm256_set1_epi8((char)needle[p1]);
    const __m256i b2 = _mm256_set1_epi8((char)needle[p2]);
    size_t i = 0;
    for (; i + k + 32 <= n; i += 32) {
        __m256i x = _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(h + i + p1)), b1);
        __m256i y = _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(h + i + p2)), b2);
        unsigned mask = (unsigned)_mm256_movemask_epi8(_mm256_and_si256(x, y));
        if (mask) {
            const unsigned char *found = verify(h + i, mask, needle, k);
            if (found) return found;
        }
    }
    return memmem(h + i, n - i, needle, k);
}

static const void *find_sse2(const unsigned char *h, size_t n, const unsigned char *needle, size_t k,
                             size_t p1, size_t p2) {
    const __m128i b1 = _mm_set1_epi8((char)needle[p1]);
    const __m128i b2 = _mm_set1_epi8((char)needle[p2]);
    size_t i = 0;
    for (; i + k + 16 <= n; i += 16) {
        __m128i x = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(h + i + p1)), b1);
        __m128i y = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(h + i + p2)), b2);
        unsigned mask = (unsigned)_mm_movemask_epi8(_mm_and_si128(x, y));
        if (mask) {
            const unsigned char *found = verify(h + i, mask, needle, k);
            if (found) return found;
        }
    }
    return memmem(h + i, n - i, needle, k);
}
#endif

const void *ubs_find(const void *haystack, size_t length, const void *needle, size_t needle_length,
                     size_t probe1, size_t probe2) {
#if defined(__x86_64__)
    if (needle_length >= 2 && probe1 < probe2 && probe2 < needle_length) {
        return __builtin_cpu_supports("avx2") ? find_avx2(haystack, length, needle, needle_length, probe1, probe2)
                        : find_sse2(haystack, length, needle, needle_length, probe1, probe2);
    }
#endif
    (void)probe1;
    (void)probe2;
    return memmem(haystack, length, needle, needle_length);
}
