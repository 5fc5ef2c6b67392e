// See include/CPlatform.h.

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "CPlatform.h"

/// Read end, write end. The handler writes one byte per signal; a thread reads them.
static int signal_pipe[2] = {-1, -1};

/// The whole signal handler: async-signal-safe (write(2) only), errno left as it was.
static void forward_signal(int number) {
    int saved = errno;
    unsigned char byte = (unsigned char)number;
    // Non-blocking: a full pipe (thousands of unread signals) drops this one, it never blocks.
    ssize_t written = write(signal_pipe[1], &byte, 1);
    (void)written;
    errno = saved;
}

/// The pipe, made once: the read end blocks, the write end does not. 0, or -1 with errno.
static int make_signal_pipe(void) {
    if (signal_pipe[0] >= 0) return 0;
    int ends[2];
    if (pipe2(ends, O_CLOEXEC) != 0) return -1;
    int flags = fcntl(ends[1], F_GETFL);
    if (flags < 0 || fcntl(ends[1], F_SETFL, flags | O_NONBLOCK) != 0) {
        int saved = errno;
        close(ends[0]);
        close(ends[1]);
        errno = saved;
        return -1;
    }
    signal_pipe[0] = ends[0];
    signal_pipe[1] = ends[1];
    return 0;
}

int cplatform_forward_signals(const int *numbers, int count) {
    if (count < 0 || count > 8 || make_signal_pipe() != 0) {
        if (count < 0 || count > 8) errno = EINVAL;
        return -1;
    }
    struct sigaction action, previous[8];
    memset(&action, 0, sizeof action);
    action.sa_handler = forward_signal;
    sigemptyset(&action.sa_mask);
    // Interrupted reads and writes carry on: only the reading thread acts on a signal.
    action.sa_flags = SA_RESTART;
    sigset_t wanted;
    sigemptyset(&wanted);
    for (int index = 0; index < count; index++) {
        if (sigaction(numbers[index], &action, &previous[index]) != 0) {
            int saved = errno;
            // All or nothing: the signals set so far get their previous action back.
            for (int undo = 0; undo < index; undo++) sigaction(numbers[undo], &previous[undo], NULL);
            errno = saved;
            return -1;
        }
        sigaddset(&wanted, numbers[index]);
    }
    // A parent may start us with these signals blocked (the mask is inherited): they would
    // then wait, pending, for ever. Unblocked in this thread, which lives as long as the run,
    // they always have a thread to land on; one already pending is handled now.
    return pthread_sigmask(SIG_UNBLOCK, &wanted, NULL) == 0 ? 0 : -1;
}

int cplatform_next_signal(void) {
    for (;;) {
        unsigned char byte;
        ssize_t got = read(signal_pipe[0], &byte, 1);
        if (got == 1) return byte;
        if (got < 0 && errno == EINTR) continue;
        return -1;
    }
}
