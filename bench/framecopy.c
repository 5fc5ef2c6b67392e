/* The machine's limit for rendering, for bench.py: how many whole YUV420 frames per second this
 * machine copies with one memcpy each, on THREADS threads, into a pool of frame buffers sized as
 * slicevid's render window (2 x threads + 2). slicevid's render reads two stills and writes
 * every byte of each frame, so its throughput is reported as a fraction of this rate.
 *
 * Usage: framecopy WIDTHxHEIGHT [THREADS [SECONDS]]   prints frames per second on one line. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static size_t frame_bytes;
static unsigned char *stills[2], **pool;
static int pool_size;
static double deadline;
static atomic_long next_frame, frames_done;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* Frame-sized memory as slicevid allocates it: 2 MB aligned, offered for huge pages, touched. */
static unsigned char *frame(void) {
    size_t huge = 2 << 20, rounded = (frame_bytes + huge - 1) / huge * huge;
    void *p = NULL;
    if (posix_memalign(&p, huge, rounded) != 0) { perror("framecopy"); exit(1); }
    madvise(p, rounded, MADV_HUGEPAGE);
    memset(p, 0x80, frame_bytes);
    return p;
}

static void *copier(void *unused) {
    (void)unused;
    /* The clock is read every 16 frames: a frame takes well under a millisecond. */
    for (long copied = 0;; copied++) {
        if ((copied & 15) == 0 && now() >= deadline) break;
        long i = atomic_fetch_add(&next_frame, 1);
        memcpy(pool[i % pool_size], stills[i & 1], frame_bytes);
        atomic_fetch_add(&frames_done, 1);
    }
    return NULL;
}

int main(int argc, char **argv) {
    int width, height;
    if (argc < 2 || sscanf(argv[1], "%dx%d", &width, &height) != 2 || width < 2 || height < 2) {
        fprintf(stderr, "usage: framecopy WIDTHxHEIGHT [THREADS [SECONDS]]\n");
        return 64;
    }
    int threads = argc > 2 ? atoi(argv[2]) : (int)sysconf(_SC_NPROCESSORS_ONLN);
    double seconds = argc > 3 ? atof(argv[3]) : 1.0;
    if (threads < 1 || threads > 256 || !(seconds > 0)) {
        fprintf(stderr, "framecopy: THREADS must be 1-256 and SECONDS positive\n");
        return 64;
    }
    frame_bytes = (size_t)width * height + 2 * (size_t)((width + 1) / 2) * ((height + 1) / 2);
    stills[0] = frame();
    stills[1] = frame();
    pool_size = 2 * threads + 2;
    pool = calloc(pool_size, sizeof *pool);
    for (int i = 0; i < pool_size; i++) pool[i] = frame();

    pthread_t workers[256];
    double start = now();
    deadline = start + seconds;
    for (int i = 0; i < threads; i++) pthread_create(&workers[i], NULL, copier, NULL);
    for (int i = 0; i < threads; i++) pthread_join(workers[i], NULL);
    printf("%.1f\n", atomic_load(&frames_done) / (now() - start));
    return 0;
}
