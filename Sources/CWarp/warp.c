// The 8-bit still warp's passes: plain C, and AVX2 (a gather per eight samples) chosen at run
// time. The arithmetic is exact in integers, so both paths write the same bytes.
#include "CWarp.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

static inline void rows8_plain(const uint8_t *upper, const uint8_t *lower, uint16_t w, uint16_t *out, ptrdiff_t n) {
    uint16_t u = (uint16_t)(256 - w);
    // 255 × 256 at most: the sum fits 16 bits.
    for (ptrdiff_t x = 0; x < n; x++) out[x] = (uint16_t)(upper[x] * u + lower[x] * w);
}

static inline void columns8_plain(const uint16_t *blend, const int32_t *index, const uint32_t *weight, uint8_t *out, ptrdiff_t n) {
    for (ptrdiff_t x = 0; x < n; x++) {
        int32_t i = index[x];
        uint32_t v = weight[x] >> 16, u = weight[x] & 0xffff;
        out[x] = (uint8_t)(((uint32_t)blend[i] * u + (uint32_t)blend[i + 1] * v + 0x8000) >> 16);
    }
}

#if defined(__x86_64__)
__attribute__((target("avx2")))
static void rows8_avx2(const uint8_t *upper, const uint8_t *lower, uint16_t w, uint16_t *out, ptrdiff_t n) {
    const __m256i vw = _mm256_set1_epi16((short)w), vu = _mm256_set1_epi16((short)(256 - w));
    ptrdiff_t x = 0;
    for (; x + 16 <= n; x += 16) {
        __m256i a = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(upper + x)));
        __m256i b = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(lower + x)));
        __m256i s = _mm256_add_epi16(_mm256_mullo_epi16(a, vu), _mm256_mullo_epi16(b, vw));
        _mm256_storeu_si256((__m256i *)(out + x), s);
    }
    rows8_plain(upper + x, lower + x, w, out + x, n - x);
}

__attribute__((target("avx2")))
static void columns8_avx2(const uint16_t *blend, const int32_t *index, const uint32_t *weight, uint8_t *out, ptrdiff_t n) {
    // The blends less 32768 as signed 16-bit pairs, so one multiply-add of the pair (blend[i],
    // blend[i + 1]) by the weights (256 − v, v) makes the sum less 32768 × 256, added back.
    const __m256i flip = _mm256_set1_epi32((int)0x80008000u);
    const __m256i back = _mm256_set1_epi32((32768 << 8) + 0x8000);
    ptrdiff_t x = 0;
    for (; x + 8 <= n; x += 8) {
        __m256i i = _mm256_loadu_si256((const __m256i *)(index + x));
        __m256i pair = _mm256_xor_si256(_mm256_i32gather_epi32((const int *)(const void *)blend, i, 2), flip);
        __m256i sum = _mm256_add_epi32(_mm256_madd_epi16(pair, _mm256_loadu_si256((const __m256i *)(weight + x))), back);
        sum = _mm256_srli_epi32(sum, 16);
        __m128i words = _mm_packus_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
        _mm_storel_epi64((__m128i *)(out + x), _mm_packus_epi16(words, words));
    }
    columns8_plain(blend, index + x, weight + x, out + x, n - x);
}

static int detect(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE) || !(c & bit_AVX)) return CWARP_PLAIN;
    // The system saves the vector registers' upper halves (XCR0 bits 1 and 2).
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6) != 6) return CWARP_PLAIN;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return CWARP_PLAIN;
    return (b & bit_AVX2) ? CWARP_AVX2 : CWARP_PLAIN;
}
#else
static int detect(void) { return CWARP_PLAIN; }
#endif

static int best = -1;

int cwarp_best_path(void) {
    // A race here only detects twice, to the same answer.
    int path = __atomic_load_n(&best, __ATOMIC_RELAXED);
    if (path < 0) {
        path = detect();
        __atomic_store_n(&best, path, __ATOMIC_RELAXED);
    }
    return path;
}

void cwarp_rows8_path(int path, const uint8_t *upper, const uint8_t *lower, uint16_t w, uint16_t *out, ptrdiff_t n) {
#if defined(__x86_64__)
    if (path == CWARP_AVX2) { rows8_avx2(upper, lower, w, out, n); return; }
#endif
    (void)path;
    rows8_plain(upper, lower, w, out, n);
}

void cwarp_columns8_path(int path, const uint16_t *blend, const int32_t *index, const uint32_t *weight, uint8_t *out, ptrdiff_t n) {
#if defined(__x86_64__)
    if (path == CWARP_AVX2) { columns8_avx2(blend, index, weight, out, n); return; }
#endif
    (void)path;
    columns8_plain(blend, index, weight, out, n);
}

void cwarp_rows8(const uint8_t *upper, const uint8_t *lower, uint16_t w, uint16_t *out, ptrdiff_t n) {
    cwarp_rows8_path(cwarp_best_path(), upper, lower, w, out, n);
}

void cwarp_columns8(const uint16_t *blend, const int32_t *index, const uint32_t *weight, uint8_t *out, ptrdiff_t n) {
    cwarp_columns8_path(cwarp_best_path(), blend, index, weight, out, n);
}
