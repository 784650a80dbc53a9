#define _GNU_SOURCE
#include <string.h>
#include "CByteScan.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

const void *ubs_memrchr(const void *haystack, int byte, size_t length) {
#if defined(__GLIBC__)
    return memrchr(haystack, byte, length);
#else
    /* macOS's libc has no memrchr; the newline is usually within the last few hundred bytes. */
    const unsigned char *start = haystack;
    for (const unsigned char *p = start + length; p > start;) {
        if (*--p == (unsigned char)byte) return p;
    }
    return NULL;
#endif
}

/* The earliest match of any needle at `base + i` for a set bit of `mask`, where bit i means some
 * needle's probes matched at offset i: bits are tried in increasing order. */
static size_t first_verified(const unsigned char *h, size_t block, unsigned mask, const unsigned *masks,
                             const unsigned char *text, const ubs_needle *needles, size_t count) {
    while (mask) {
        unsigned bit = (unsigned)__builtin_ctz(mask);
        for (size_t j = 0; j < count; j++) {
            if ((masks[j] >> bit) & 1u) {
                if (memcmp(h + block + bit, text + needles[j].offset, needles[j].length) == 0) return block + bit;
            }
        }
        mask &= mask - 1;
    }
    return (size_t)-1;
}

static size_t longest(const ubs_needle *needles, size_t count) {
    size_t longest = 0;
    for (size_t j = 0; j < count; j++) if (needles[j].length > longest) longest = needles[j].length;
    return longest;
}

/* The earliest match in h[from..<n] found by memmem: the portable path, and the tail of the SIMD ones. */
static size_t find_scalar(const unsigned char *h, size_t from, size_t n, const unsigned char *text,
                          const ubs_needle *needles, size_t count) {
    size_t best = n;
    for (size_t j = 0; j < count; j++) {
        const unsigned char *hit = memmem(h + from, n - from, text + needles[j].offset, needles[j].length);
        if (hit && (size_t)(hit - h) < best) best = (size_t)(hit - h);
    }
    return best;
}

#if defined(__x86_64__)
/* The SIMD searches are inlined into a copy for each usual number of needles (`by_count`): with the count known,
 * the loop over the needles is unrolled and every probe stays in a register (codex's three needles over 300 MB in
 * cache: AVX2 42 -> 37 ms, AVX-512 28 -> 24 ms). */
#define UBS_BY_COUNT(search, h, n, text, needles, count)            \
    switch (count) {                                                \
    case 1: return search(h, n, text, needles, 1);                  \
    case 2: return search(h, n, text, needles, 2);                  \
    case 3: return search(h, n, text, needles, 3);                  \
    case 4: return search(h, n, text, needles, 4);                  \
    default: return search(h, n, text, needles, count);             \
    }

__attribute__((target("avx2"), always_inline))
static inline size_t find_avx2_n(const unsigned char *h, size_t n, const unsigned char *text,
                                 const ubs_needle *needles, const size_t count) {
    __m256i b1[8], b2[8];
    for (size_t j = 0; j < count; j++) {
        b1[j] = _mm256_set1_epi8((char)text[needles[j].offset + needles[j].probe1]);
        b2[j] = _mm256_set1_epi8((char)text[needles[j].offset + needles[j].probe2]);
    }
    const size_t reach = longest(needles, count);
    size_t i = 0;
    for (; i + reach + 32 <= n; i += 32) {
        unsigned masks[8];
        unsigned any = 0;
        for (size_t j = 0; j < count; j++) {
            __m256i x = _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(h + i + needles[j].probe1)), b1[j]);
            __m256i y = _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(h + i + needles[j].probe2)), b2[j]);
            masks[j] = (unsigned)_mm256_movemask_epi8(_mm256_and_si256(x, y));
            any |= masks[j];
        }
        if (any) {
            size_t found = first_verified(h, i, any, masks, text, needles, count);
            if (found != (size_t)-1) return found;
        }
    }
    return find_scalar(h, i, n, text, needles, count);
}

__attribute__((target("avx2")))
static size_t find_avx2(const unsigned char *h, size_t n, const unsigned char *text, const ubs_needle *needles,
                        size_t count) {
    UBS_BY_COUNT(find_avx2_n, h, n, text, needles, count)
}

/* As find_avx2, 64 bytes at a time: where the CPU has AVX-512BW, half the instructions for the same bytes. */
__attribute__((target("avx512f,avx512bw"), always_inline))
static inline size_t find_avx512_n(const unsigned char *h, size_t n, const unsigned char *text,
                                   const ubs_needle *needles, const size_t count) {
    __m512i b1[8], b2[8];
    for (size_t j = 0; j < count; j++) {
        b1[j] = _mm512_set1_epi8((char)text[needles[j].offset + needles[j].probe1]);
        b2[j] = _mm512_set1_epi8((char)text[needles[j].offset + needles[j].probe2]);
    }
    const size_t reach = longest(needles, count);
    size_t i = 0;
    for (; i + reach + 64 <= n; i += 64) {
        unsigned long long masks[8];
        unsigned long long any = 0;
        for (size_t j = 0; j < count; j++) {
            __mmask64 x = _mm512_cmpeq_epi8_mask(_mm512_loadu_si512((const void *)(h + i + needles[j].probe1)), b1[j]);
            masks[j] = _mm512_mask_cmpeq_epi8_mask(x, _mm512_loadu_si512((const void *)(h + i + needles[j].probe2)), b2[j]);
            any |= masks[j];
        }
        while (any) {
            unsigned bit = (unsigned)__builtin_ctzll(any);
            for (size_t j = 0; j < count; j++) {
                if (((masks[j] >> bit) & 1u) && memcmp(h + i + bit, text + needles[j].offset, needles[j].length) == 0) {
                    return i + bit;
                }
            }
            any &= any - 1;
        }
    }
    return find_scalar(h, i, n, text, needles, count);
}

__attribute__((target("avx512f,avx512bw")))
static size_t find_avx512(const unsigned char *h, size_t n, const unsigned char *text, const ubs_needle *needles,
                          size_t count) {
    UBS_BY_COUNT(find_avx512_n, h, n, text, needles, count)
}

static size_t find_sse2(const unsigned char *h, size_t n, const unsigned char *text, const ubs_needle *needles,
                        size_t count) {
    __m128i b1[8], b2[8];
    for (size_t j = 0; j < count; j++) {
        b1[j] = _mm_set1_epi8((char)text[needles[j].offset + needles[j].probe1]);
        b2[j] = _mm_set1_epi8((char)text[needles[j].offset + needles[j].probe2]);
    }
    const size_t reach = longest(needles, count);
    size_t i = 0;
    for (; i + reach + 16 <= n; i += 16) {
        unsigned masks[8];
        unsigned any = 0;
        for (size_t j = 0; j < count; j++) {
            __m128i x = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(h + i + needles[j].probe1)), b1[j]);
            __m128i y = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(h + i + needles[j].probe2)), b2[j]);
            masks[j] = (unsigned)_mm_movemask_epi8(_mm_and_si128(x, y));
            any |= masks[j];
        }
        if (any) {
            size_t found = first_verified(h, i, any, masks, text, needles, count);
            if (found != (size_t)-1) return found;
        }
    }
    return find_scalar(h, i, n, text, needles, count);
}
#endif

size_t ubs_find_any(const void *haystack, size_t length, const unsigned char *text, const ubs_needle *needles,
                    size_t count) {
    const unsigned char *h = haystack;
    if (count == 0) return length;
#if defined(__x86_64__)
    int probes_valid = count <= 8;
    for (size_t j = 0; j < count; j++) {
        if (!(needles[j].probe1 < needles[j].probe2 && needles[j].probe2 < needles[j].length)) probes_valid = 0;
    }
    if (probes_valid) {
        if (__builtin_cpu_supports("avx512bw")) return find_avx512(h, length, text, needles, count);
        return __builtin_cpu_supports("avx2") ? find_avx2(h, length, text, needles, count)
                                              : find_sse2(h, length, text, needles, count);
    }
#endif
    return find_scalar(h, 0, length, text, needles, count);
}
