// The 8-bit still warp's two passes in C, for the vector instructions Swift cannot choose at
// run time (StillWarp.swift). Integer arithmetic only: every path writes the same bytes.
#ifndef CWARP_H
#define CWARP_H

#include <stddef.h>
#include <stdint.h>

/// `out[x] = upper[x] × (256 − w) + lower[x] × w` for `x` in `0..<n`: a row's vertical blends,
/// 8 bits more than a sample. `w` is below 256.
void cwarp_rows8(const uint8_t *upper, const uint8_t *lower, uint16_t w, uint16_t *out, ptrdiff_t n);

/// `out[x] = (blend[i] × (256 − v) + blend[i + 1] × v + 0x8000) >> 16` for `x` in `0..<n`, with
/// `i = index[x]` and `v` the high half of `weight[x]` (its low half is `256 − v`): a row's
/// horizontal blends. `blend[i + 1]` must be readable for every `i`.
void cwarp_columns8(const uint16_t *blend, const int32_t *index, const uint32_t *weight, uint8_t *out, ptrdiff_t n);

/// The paths `cwarp_columns8` and `cwarp_rows8` choose between, for the tests: 0 plain C (every
/// machine), 1 AVX2 (x86-64 machines that have it).
enum { CWARP_PLAIN = 0, CWARP_AVX2 = 1 };

/// The best path this machine runs.
int cwarp_best_path(void);

/// `cwarp_rows8` and `cwarp_columns8` by the given path (one `cwarp_best_path` allows).
void cwarp_rows8_path(int path, const uint8_t *upper, const uint8_t *lower, uint16_t w, uint16_t *out, ptrdiff_t n);
void cwarp_columns8_path(int path, const uint16_t *blend, const int32_t *index, const uint32_t *weight, uint8_t *out, ptrdiff_t n);

#endif
