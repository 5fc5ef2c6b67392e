// See include/CPlatform.h: a decode helper started with nothing of its parent's but what it
// needs, the result's memory file, and the limits it sets on itself.

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "CPlatform.h"

/// A copy of `fd` numbered above the helper's fixed descriptors (0-4), so that placing one
/// never overwrites another still to be placed. -1 with errno on failure.
static int above_fixed(int fd) {
    return fcntl(fd, F_DUPFD_CLOEXEC, 10);
}

int cplatform_spawn_helper(const char *path, char *const argv[], char *const envp[],
                           int input_fd, int result_fd, int error_fd, int *pidfd) {
    *pidfd = -1;
    int input = above_fixed(input_fd), result = above_fixed(result_fd), error = above_fixed(error_fd);
    int status = 0;
    pid_t pid = 0;
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    if (input < 0 || result < 0 || error < 0) {
        status = errno;
        goto done;
    }
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attributes);
    // dup2 clears close-on-exec on the new number; everything from 5 up is closed, whatever
    // the parent (or a library in it) left open without close-on-exec.
    if ((status = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)) == 0 &&
        (status = posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)) == 0 &&
        (status = posix_spawn_file_actions_adddup2(&actions, error, 2)) == 0 &&
        (status = posix_spawn_file_actions_adddup2(&actions, input, 3)) == 0 &&
        (status = posix_spawn_file_actions_adddup2(&actions, result, 4)) == 0 &&
        (status = posix_spawn_file_actions_addclosefrom_np(&actions, 5)) == 0) {
        // Every signal at its default action (the parent ignores SIGPIPE and traps SIGINT and
        // SIGTERM), none blocked, and a process group of its own: a terminal's Ctrl-C reaches
        // the parent only, which decides what becomes of the helper.
        sigset_t all, none;
        sigfillset(&all);
        sigemptyset(&none);
        posix_spawnattr_setsigdefault(&attributes, &all);
        posix_spawnattr_setsigmask(&attributes, &none);
        posix_spawnattr_setpgroup(&attributes, 0);
        posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP);
        status = posix_spawn(&pid, path, &actions, &attributes, argv, envp);
        // Our own child, not yet waited for: its number cannot be reused meanwhile. Without
        // pidfds (Linux < 5.3) the caller polls waitpid instead.
        if (status == 0) *pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    }
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
done:
    if (input >= 0) close(input);
    if (result >= 0) close(result);
    if (error >= 0) close(error);
    return status == 0 ? (int)pid : -status;
}

int cplatform_memory_file(const char *name) {
    return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}

int cplatform_seal(int fd) {
    return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
}

/// Sets `resource`'s limits to at most `soft` and `hard`, never above what is in force already
/// (slicevid run under `ulimit -v` keeps that lower limit; raising it would fail).
static int lower_limit(int resource, rlim_t soft, rlim_t hard) {
    struct rlimit now;
    if (getrlimit(resource, &now) != 0) return -1;
    struct rlimit wanted = {soft, hard};
    if (now.rlim_max != RLIM_INFINITY && wanted.rlim_max > now.rlim_max) wanted.rlim_max = now.rlim_max;
    if (wanted.rlim_cur > wanted.rlim_max) wanted.rlim_cur = wanted.rlim_max;
    return setrlimit(resource, &wanted);
}

int cplatform_confine_helper(int parent, unsigned long long address_space, unsigned long long cpu_seconds) {
    // Dies with the thread that started it (that thread waits for it, so: with the parent).
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return -1;
    // The parent may have died before the line above: then nobody waits for this decode.
    if (getppid() != parent) return -1;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    // SIGXCPU at the soft limit, SIGKILL a few seconds later if that is caught or ignored.
    if (lower_limit(RLIMIT_AS, address_space, address_space) != 0 ||
        lower_limit(RLIMIT_CPU, cpu_seconds, cpu_seconds + 5) != 0 ||
        lower_limit(RLIMIT_CORE, 0, 0) != 0) return -1;
    return 0;
}

int cplatform_exit_signal(int status) {
    return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

int cplatform_exit_code(int status) {
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int cplatform_error_pipe(int ends[2]) {
    if (pipe2(ends, O_CLOEXEC) != 0) return -1;
    int flags = fcntl(ends[0], F_GETFL);
    if (flags < 0 || fcntl(ends[0], F_SETFL, flags | O_NONBLOCK) != 0) {
        int saved = errno;
        close(ends[0]);
        close(ends[1]);
        errno = saved;
        return -1;
    }
    return 0;
}
