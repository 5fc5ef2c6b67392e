/* Memory orders for drawing a frame of strips, compared on this machine (see
 * docs/performance.md): the same ~25-byte row pieces of a mid-transition 4:2:0 frame with 75 vertical
 * strips, copied in four orders, against one memcpy of the whole frame. CPU time per frame, so
 * other work on the machine disturbs it less than wall time would.
 *
 *   copy     one memcpy of the whole frame (the machine limit)
 *   strips   each strip top to bottom, a row piece at a time (slicevid before 2026-12)
 *   rows     each frame row left to right, each strip's piece from its shifted still row
 *   bands    bands of ~64 KiB of rows; in a band, strip by strip, each strip read from a copy of
 *            the still cut into strips (each strip's rows contiguous): slicevid's order
 *
 * Usage: orders WIDTHxHEIGHT [FRAMES]   prints one line per order. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { STRIPS = 75 };
typedef struct { uint8_t *base; int width, height; } plane; /* stride = width */

static int bound(int s, int extent) { return (s * extent * 2 + STRIPS) / (STRIPS * 2); }

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* A row piece as slicevid copies one: overlapping moves, no call. */
static inline void piece(uint8_t *to, const uint8_t *from, int n) {
    if (n >= 16) {
        int i = 0;
        for (; i + 16 < n; i += 16) memcpy(to + i, from + i, 16);
        memcpy(to + n - 16, from + n - 16, 16);
    } else if (n >= 8) {
        uint64_t a, b;
        memcpy(&a, from, 8); memcpy(&b, from + n - 8, 8);
        memcpy(to, &a, 8); memcpy(to + n - 8, &b, 8);
    } else {
        for (int i = 0; i < n; i++) to[i] = from[i];
    }
}

static uint8_t *frame(size_t bytes) {
    uint8_t *p = aligned_alloc(64, (bytes + 63) / 64 * 64);
    if (!p) { perror("orders"); exit(1); }
    memset(p, 0x80, bytes);
    return p;
}

/* Each strip's shifts for a frame part way through the transition, spread as K in [1, 4] spreads them. */
static void shifts(int which_frame, int rows, int *d_out, int *d_in) {
    double p = 0.1 + 0.8 * (which_frame % 61) / 60.0;
    for (int s = 0; s < STRIPS; s++) {
        double k_out = 1 + 3 * ((s * 7919) % 101) / 100.0, k_in = 1 + 3 * ((s * 104729) % 103) / 102.0;
        d_out[s] = (int)((s & 1 ? 1 : -1) * k_out * rows * p);
        d_in[s] = (int)((s & 1 ? -1 : 1) * k_in * rows * (1 - p));
    }
}

/* Which still strip s shows at frame row y (0 none: background, 1 incoming, 2 outgoing) and from which row. */
static inline int origin(int s, int y, int rows, const int *d_out, const int *d_in, int *from_row) {
    if (y - d_in[s] >= 0 && y - d_in[s] < rows) { *from_row = y - d_in[s]; return 1; }
    if (y - d_out[s] >= 0 && y - d_out[s] < rows) { *from_row = y - d_out[s]; return 2; }
    return 0;
}

int main(int argc, char **argv) {
    int width, height;
    if (argc < 2 || sscanf(argv[1], "%dx%d", &width, &height) != 2 || width < 2 || height < 2) {
        fprintf(stderr, "usage: orders WIDTHxHEIGHT [FRAMES]\n");
        return 64;
    }
    int frames = argc > 2 ? atoi(argv[2]) : 200;
    plane sizes[3] = {{0, width, height}, {0, (width + 1) / 2, (height + 1) / 2}, {0, (width + 1) / 2, (height + 1) / 2}};
    size_t bytes = 0;
    for (int p = 0; p < 3; p++) bytes += (size_t)sizes[p].width * sizes[p].height;
    uint8_t *stills[2] = {frame(bytes), frame(bytes)}, *cut[2] = {frame(bytes), frame(bytes)}, *targets[4];
    for (int i = 0; i < 4; i++) targets[i] = frame(bytes);
    uint8_t fill[8192];
    memset(fill, 16, sizeof fill);
    /* The cut copies: each plane's strips one after another, each strip's rows contiguous. */
    for (int k = 0; k < 2; k++) {
        size_t at = 0;
        for (int p = 0; p < 3; p++) {
            plane pl = sizes[p];
            for (int s = 0; s < STRIPS; s++) {
                int x0 = bound(s, pl.width), w = bound(s + 1, pl.width) - x0;
                for (int y = 0; y < pl.height; y++)
                    memcpy(cut[k] + at + (size_t)x0 * pl.height + (size_t)y * w, stills[k] + at + (size_t)y * pl.width + x0, w);
            }
            at += (size_t)pl.width * pl.height;
        }
    }
    const char *names[] = {"copy", "strips", "rows", "bands"};
    double copy_rate = 0;
    for (int order = 0; order < 4; order++) {
        double start = cpu_seconds();
        for (int f = 0; f < frames; f++) {
            uint8_t *target = targets[f & 3];
            if (order == 0) { memcpy(target, stills[f & 1], bytes); continue; }
            size_t at = 0;
            for (int p = 0; p < 3; p++) {
                plane pl = sizes[p];
                int xs[STRIPS + 1], d_out[STRIPS], d_in[STRIPS];
                for (int s = 0; s <= STRIPS; s++) xs[s] = bound(s, pl.width);
                shifts(f, pl.height, d_out, d_in);
                uint8_t *t = target + at;
                const uint8_t *still[3] = {fill, stills[0] + at, stills[1] + at}, *cuts[3] = {fill, cut[0] + at, cut[1] + at};
                int band = order == 3 ? (65536 / pl.width > 0 ? 65536 / pl.width : 1) : pl.height;
                for (int y0 = 0; y0 < pl.height; y0 += band) {
                    int y1 = y0 + band < pl.height ? y0 + band : pl.height;
                    if (order == 2) {
                        for (int y = y0; y < y1; y++)
                            for (int s = 0; s < STRIPS; s++) {
                                int r, w = xs[s + 1] - xs[s], o = origin(s, y, pl.height, d_out, d_in, &r);
                                piece(t + (size_t)y * pl.width + xs[s], o ? still[o] + (size_t)r * pl.width + xs[s] : fill, w);
                            }
                        continue;
                    }
                    for (int s = 0; s < STRIPS; s++) {
                        int w = xs[s + 1] - xs[s];
                        for (int y = y0; y < y1; y++) {
                            int r, o = origin(s, y, pl.height, d_out, d_in, &r);
                            const uint8_t *at_row = !o ? fill
                                : order == 1 ? still[o] + (size_t)r * pl.width + xs[s]
                                : cuts[o] + (size_t)xs[s] * pl.height + (size_t)r * w;
                            piece(t + (size_t)y * pl.width + xs[s], at_row, w);
                        }
                    }
                }
                at += (size_t)pl.width * pl.height;
            }
        }
        double rate = frames / (cpu_seconds() - start);
        if (order == 0) copy_rate = rate;
        printf("%-7s %dx%d: %6.0f frames per CPU second, %3.0f%% of copy\n", names[order], width, height, rate,
               100 * rate / copy_rate);
    }
    return 0;
}
