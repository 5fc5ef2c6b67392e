// The 8-bit still warp in C, for the vector instructions Swift cannot choose at run time
// (StillWarp.swift). Integer arithmetic only: every path writes the same bytes.
#ifndef CWARP_H
#define CWARP_H

#include <stddef.h>
#include <stdint.h>

/// Blends past the last one a row reads that the vector paths may load (never using them):
/// `blend` needs `width + CWARP_BLEND_PAST` entries.
#define CWARP_BLEND_PAST 32

/// Draws `rows` × `n` samples of an 8-bit plane `width` × `height` samples, rows `stride`
/// bytes apart from `source`, resampled, into rows `targetStride` bytes apart from `target`.
///
/// Output row `y` blends source rows `rowIndex[y]` and the next (the last row pairs with itself):
/// `b = upper × (256 − v) + lower × v`, with `v` the high half of `rowWeight[y]` (its low half
/// `256 − v`), 8 bits more than a sample. Output sample `x` of it is then
/// `(b[i] × (256 − v) + b[i + 1] × v + 0x8000) >> 16`, with `i = index[x]` and `v` the high half of
/// `weight[x]`; a tap at the row's last sample pairs with itself.
///
/// Every `rowIndex` lies in `0..<height`, every `index` in `0..<width`, every `v` below 256.
/// Scratch: `blend` holds `width + CWARP_BLEND_PAST` entries, `scratch` `n + n / 16 + 1`.
void cwarp_warp8(const uint8_t *source, ptrdiff_t stride, ptrdiff_t width, ptrdiff_t height,
                 const int32_t *rowIndex, const uint32_t *rowWeight, ptrdiff_t rows,
                 const int32_t *index, const uint32_t *weight, ptrdiff_t n,
                 uint8_t *target, ptrdiff_t targetStride, uint16_t *blend, int32_t *scratch);

/// The paths the kernel chooses between, for the tests: 0 plain C (every machine), 1 AVX2 and
/// 2 AVX-512 (F and BW; x86-64 machines that have them).
enum { CWARP_PLAIN = 0, CWARP_AVX2 = 1, CWARP_AVX512 = 2 };

/// The best path this machine runs.
int cwarp_best_path(void);

/// `cwarp_warp8` by the given path (one `cwarp_best_path` allows).
void cwarp_warp8_path(int path, const uint8_t *source, ptrdiff_t stride, ptrdiff_t width, ptrdiff_t height,
                      const int32_t *rowIndex, const uint32_t *rowWeight, ptrdiff_t rows,
                      const int32_t *index, const uint32_t *weight, ptrdiff_t n,
                      uint8_t *target, ptrdiff_t targetStride, uint16_t *blend, int32_t *scratch);

/// Its two passes alone, by the given path, for the tests: a row's vertical blends
/// `out[x] = upper[x] × (256 − w) + lower[x] × w`, and a row's horizontal blends of `blend`
/// (`blend[i]` to `blend[i + 31]` readable for every tap `i`; `scratch` as above).
void cwarp_rows8_path(int path, const uint8_t *upper, const uint8_t *lower, uint16_t w, uint16_t *out, ptrdiff_t n);
void cwarp_columns8_path(int path, const uint16_t *blend, const int32_t *index, const uint32_t *weight, uint8_t *out, ptrdiff_t n,
                         int32_t *scratch);

#endif
