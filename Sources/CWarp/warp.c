// The 8-bit still warp's passes: plain C, AVX2 and AVX-512, the widest the machine has chosen at
// run time. The arithmetic is exact in integers, so every path writes the same bytes.
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

// Eight outputs' pairs (blend[i], blend[i + 1]) as 32-bit words, each half of the vector read
// from one load of eight blends at its first output's index: a shuffle instead of a gather, for
// outputs that read within seven blends of their half's first (every zoom of 1 or more does, its
// step being a sample or less). Zero when a half reads farther, for the gather to do instead.
__attribute__((target("avx2")))
static inline int pairs_shuffled(const uint16_t *blend, const int32_t *index, __m256i *pairs) {
    __m256i i = _mm256_loadu_si256((const __m256i *)index);
    int32_t low = index[0], high = index[4];
    // Each output's distance from its half's first, in blends.
    __m256i d = _mm256_sub_epi32(i, _mm256_permutevar8x32_epi32(i, _mm256_setr_epi32(0, 0, 0, 0, 4, 4, 4, 4)));
    // Within 0…6 (unsigned: a negative distance is huge), so a pair's four bytes lie in the half's sixteen.
    if (!_mm256_testz_si256(_mm256_cmpgt_epi32(d, _mm256_set1_epi32(6)), _mm256_set1_epi32(-1))
        || !_mm256_testz_si256(d, _mm256_set1_epi32((int)0x80000000u))) return 0;
    // Byte offsets 2d, 2d + 1, 2d + 2, 2d + 3 in each word.
    __m256i twice = _mm256_add_epi32(d, d);
    __m256i spread = _mm256_shuffle_epi8(twice, _mm256_setr_epi8(0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12,
                                                                 0, 0, 0, 0, 4, 4, 4, 4, 8, 8, 8, 8, 12, 12, 12, 12));
    __m256i mask = _mm256_add_epi8(spread, _mm256_set1_epi32(0x03020100));
    __m256i window = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(blend + low))),
                                             _mm_loadu_si128((const __m128i *)(blend + high)), 1);
    *pairs = _mm256_shuffle_epi8(window, mask);
    return 1;
}

__attribute__((target("avx2")))
static void columns8_avx2(const uint16_t *blend, const int32_t *index, const uint32_t *weight, uint8_t *out, ptrdiff_t n) {
    // The blends less 32768 as signed 16-bit pairs, so one multiply-add of the pair (blend[i],
    // blend[i + 1]) by the weights (256 − v, v) makes the sum less 32768 × 256, added back.
    const __m256i flip = _mm256_set1_epi32((int)0x80008000u);
    const __m256i back = _mm256_set1_epi32((32768 << 8) + 0x8000);
    ptrdiff_t x = 0;
    for (; x + 8 <= n; x += 8) {
        __m256i pair;
        if (!pairs_shuffled(blend, index + x, &pair)) {
            pair = _mm256_i32gather_epi32((const int *)(const void *)blend, _mm256_loadu_si256((const __m256i *)(index + x)), 2);
        }
        pair = _mm256_xor_si256(pair, flip);
        __m256i sum = _mm256_add_epi32(_mm256_madd_epi16(pair, _mm256_loadu_si256((const __m256i *)(weight + x))), back);
        sum = _mm256_srli_epi32(sum, 16);
        __m128i words = _mm_packus_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
        _mm_storel_epi64((__m128i *)(out + x), _mm_packus_epi16(words, words));
    }
    columns8_plain(blend, index + x, weight + x, out + x, n - x);
}

// Sixteen outputs at a time: their pairs (blend[i], blend[i + 1]) permuted as 16-bit words out
// of one load of 32 blends at the first output's index, for outputs that read within 30 blends
// of it (every zoom of 1 or more does, its step being a sample or less); a gather otherwise. The
// permutation is worked out once per rectangle (`prepare16`), not once per row. One saturating
// narrowing stores the sixteen bytes.

/// For each whole sixteen outputs `g`: `first[g]`, the index the load starts at (−1: gather),
/// and `words[16g…]`, each output's word indices d and d + 1 in that load.
__attribute__((target("avx512f,avx512bw")))
static void prepare16(const int32_t *index, ptrdiff_t n, int32_t *first, int32_t *words) {
    const __m512i far = _mm512_set1_epi32(30), next = _mm512_set1_epi32(0x10000);
    for (ptrdiff_t g = 0; g < n / 16; g++) {
        __m512i i = _mm512_loadu_si512((const void *)(index + 16 * g));
        // Each output's distance from the first, in blends (unsigned: a negative one is huge).
        __m512i d = _mm512_sub_epi32(i, _mm512_set1_epi32(index[16 * g]));
        first[g] = _mm512_cmpgt_epu32_mask(d, far) == 0 ? index[16 * g] : -1;
        _mm512_storeu_si512((void *)(words + 16 * g), _mm512_add_epi32(_mm512_or_si512(d, _mm512_slli_epi32(d, 16)), next));
    }
}

__attribute__((target("avx512f,avx512bw")))
static void columns8_avx512(const uint16_t *blend, const int32_t *index, const uint32_t *weight, uint8_t *out, ptrdiff_t n,
                            const int32_t *first, const int32_t *words) {
    const __m512i flip = _mm512_set1_epi32((int)0x80008000u);
    const __m512i back = _mm512_set1_epi32((32768 << 8) + 0x8000);
    ptrdiff_t x = 0;
    for (; x + 16 <= n; x += 16) {
        int32_t at = first[x / 16];
        __m512i pair = at >= 0
            ? _mm512_permutexvar_epi16(_mm512_loadu_si512((const void *)(words + x)), _mm512_loadu_si512((const void *)(blend + at)))
            : _mm512_i32gather_epi32(_mm512_loadu_si512((const void *)(index + x)), (const void *)blend, 2);
        __m512i sum = _mm512_add_epi32(_mm512_madd_epi16(_mm512_xor_si512(pair, flip),
                                                         _mm512_loadu_si512((const void *)(weight + x))), back);
        _mm_storeu_si128((__m128i *)(out + x), _mm512_cvtusepi32_epi8(_mm512_srli_epi32(sum, 16)));
    }
    columns8_avx2(blend, index + x, weight + x, out + x, n - x);
}

__attribute__((target("avx512f,avx512bw")))
static void rows8_avx512(const uint8_t *upper, const uint8_t *lower, uint16_t w, uint16_t *out, ptrdiff_t n) {
    const __m512i vw = _mm512_set1_epi16((short)w), vu = _mm512_set1_epi16((short)(256 - w));
    ptrdiff_t x = 0;
    for (; x + 32 <= n; x += 32) {
        __m512i a = _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(upper + x)));
        __m512i b = _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(lower + x)));
        _mm512_storeu_si512((void *)(out + x), _mm512_add_epi16(_mm512_mullo_epi16(a, vu), _mm512_mullo_epi16(b, vw)));
    }
    rows8_avx2(upper + x, lower + x, w, out + x, n - x);
}

static int detect(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE) || !(c & bit_AVX)) return CWARP_PLAIN;
    // The system saves the vector registers' upper halves (XCR0 bits 1 and 2).
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6) != 6) return CWARP_PLAIN;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(b & bit_AVX2)) return CWARP_PLAIN;
    // AVX-512 F and BW, with the system saving the mask and upper vector registers (XCR0 bits 5–7).
    return (b & bit_AVX512F) && (b & bit_AVX512BW) && (lo & 0xe0) == 0xe0 ? CWARP_AVX512 : CWARP_AVX2;
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
    if (path == CWARP_AVX512) { rows8_avx512(upper, lower, w, out, n); return; }
    if (path == CWARP_AVX2) { rows8_avx2(upper, lower, w, out, n); return; }
#endif
    (void)path;
    rows8_plain(upper, lower, w, out, n);
}

void cwarp_columns8_path(int path, const uint16_t *blend, const int32_t *index, const uint32_t *weight, uint8_t *out, ptrdiff_t n,
                         int32_t *scratch) {
#if defined(__x86_64__)
    if (path == CWARP_AVX512) {
        prepare16(index, n, scratch, scratch + n / 16 + 1);
        columns8_avx512(blend, index, weight, out, n, scratch, scratch + n / 16 + 1);
        return;
    }
    if (path == CWARP_AVX2) { columns8_avx2(blend, index, weight, out, n); return; }
#endif
    (void)path, (void)scratch;
    columns8_plain(blend, index, weight, out, n);
}

void cwarp_warp8_path(int path, const uint8_t *source, ptrdiff_t stride, ptrdiff_t width, ptrdiff_t height,
                      const int32_t *rowIndex, const uint32_t *rowWeight, ptrdiff_t rows,
                      const int32_t *index, const uint32_t *weight, ptrdiff_t n,
                      uint8_t *target, ptrdiff_t targetStride, uint16_t *blend, int32_t *scratch) {
    if (rows <= 0 || n <= 0) return;
    // The samples the outputs read: the lowest tap to the one after the highest, within the row.
    int32_t low = index[0], high = index[0];
    for (ptrdiff_t x = 1; x < n; x++) {
        if (index[x] < low) low = index[x];
        if (index[x] > high) high = index[x];
    }
    if (high + 1 < width) high += 1;
#if defined(__x86_64__)
    int32_t *first = scratch, *words = scratch + n / 16 + 1;
    if (path == CWARP_AVX512) prepare16(index, n, first, words);
#else
    (void)scratch;
#endif
    for (ptrdiff_t y = 0; y < rows; y++) {
        int32_t r = rowIndex[y];
        const uint8_t *upper = source + r * stride, *lower = source + (r + 1 < height ? r + 1 : r) * stride;
        uint16_t w = (uint16_t)(rowWeight[y] >> 16);
        uint8_t *out = target + y * targetStride;
        // The last sample read pairs with itself: a second tap there has weight 0 (only a
        // position clamped to the row's last sample reads it).
#if defined(__x86_64__)
        if (path == CWARP_AVX512) {
            rows8_avx512(upper + low, lower + low, w, blend + low, high - low + 1);
            blend[high + 1] = blend[high];
            columns8_avx512(blend, index, weight, out, n, first, words);
            continue;
        }
        if (path == CWARP_AVX2) {
            rows8_avx2(upper + low, lower + low, w, blend + low, high - low + 1);
            blend[high + 1] = blend[high];
            columns8_avx2(blend, index, weight, out, n);
            continue;
        }
#endif
        rows8_plain(upper + low, lower + low, w, blend + low, high - low + 1);
        blend[high + 1] = blend[high];
        columns8_plain(blend, index, weight, out, n);
    }
}

void cwarp_warp8(const uint8_t *source, ptrdiff_t stride, ptrdiff_t width, ptrdiff_t height,
                 const int32_t *rowIndex, const uint32_t *rowWeight, ptrdiff_t rows,
                 const int32_t *index, const uint32_t *weight, ptrdiff_t n,
                 uint8_t *target, ptrdiff_t targetStride, uint16_t *blend, int32_t *scratch) {
    cwarp_warp8_path(cwarp_best_path(), source, stride, width, height, rowIndex, rowWeight, rows, index, weight, n,
                     target, targetStride, blend, scratch);
}
