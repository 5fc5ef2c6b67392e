// Linux calls Swift's Glibc module does not import: it is built without _GNU_SOURCE, so
// renameat2 and its flags stay hidden, and macros such as FE_DFL_ENV are pointer casts Swift
// cannot use. Small wrappers, compiled as C with _GNU_SOURCE.

#ifndef CPLATFORM_H
#define CPLATFORM_H

/// rename(2) that fails with EEXIST instead of replacing an existing `to` (renameat2 with
/// RENAME_NOREPLACE, Linux 3.15+). Fails with EINVAL or ENOSYS where the filesystem or
/// kernel cannot promise it; the caller then falls back to link(2) + unlink(2).
/// Returns 0, or -1 with errno set.
int cplatform_rename_noreplace(const char *from, const char *to);

/// cplatform_rename_noreplace with both names relative to the open folder `folder` (or
/// AT_FDCWD): a folder swapped for a link after it was opened cannot redirect the move.
int cplatform_renameat_noreplace(int folder, const char *from, const char *to);

/// Opens the folder at `path` to name files relative to (O_PATH | O_DIRECTORY: needs no read
/// permission on it). Returns the descriptor, or -1 with errno set.
int cplatform_open_folder(const char *path);

/// Puts the calling thread's floating-point environment back to the default (fesetenv with
/// FE_DFL_ENV): round to nearest, exceptions masked, x87 at extended precision, SSE without
/// flush-to-zero. Threads inherit their creator's environment, and libx264 gives another
/// stream when it runs in another rounding mode. Returns 0 on success.
int cplatform_default_floating_point(void);

/// Makes each of `numbers` (at most 8; SIGINT and SIGTERM here) write its number into a pipe
/// instead of taking its default action; `cplatform_next_signal` reads them, in order. The
/// handler is in place when this returns, so no signal after it is lost (libdispatch's
/// signal sources install theirs later, from their own thread), and the signals are
/// unblocked in the calling thread (a parent's blocked mask is inherited), so one already
/// pending is handled too. Calling it again adds signals to the same pipe.
/// Returns 0, or -1 with errno set when the pipe or a handler cannot be set: the signals
/// then keep their previous action.
int cplatform_forward_signals(const int *numbers, int count);

/// Blocks until a forwarded signal comes and returns its number (-1 if the pipe failed).
int cplatform_next_signal(void);

/// Starts the decode helper `path` with `argv` and `envp` (both NULL-terminated) and only these
/// descriptors: 0 and 1 on /dev/null, 2 `error_fd` (a pipe the parent reads), 3 `input_fd`
/// (the still, read-only), 4 `result_fd` (the memory file it answers in); every other one
/// closed. Every signal at its default action and none blocked, in a process group of its own.
/// `*pidfd` gets a descriptor that polls readable when the helper ends (-1 where the kernel
/// has none). Returns the helper's pid, or -errno.
int cplatform_spawn_helper(const char *path, char *const argv[], char *const envp[],
                           int input_fd, int result_fd, int error_fd, int *pidfd);

/// A pipe for a helper's standard error: both ends closed on exec, the read end (`ends[0]`)
/// non-blocking. Returns 0, or -1 with errno.
int cplatform_error_pipe(int ends[2]);

/// A memory file (memfd) that can be sealed, closed on exec. Returns it, or -1 with errno.
int cplatform_memory_file(const char *name);

/// Seals a memory file against growing, shrinking, writing and further seals, so a mapping of
/// it can neither change nor fault. Fails (-1, EBUSY) while a writable mapping of it exists.
int cplatform_seal(int fd);

/// Run by the helper first: dies with its parent (SIGKILL), refuses to go on if `parent` is
/// already gone, no new privileges, and limits its address space and CPU time (SIGXCPU at
/// `cpu_seconds`, SIGKILL 5 s later; lower limits already in force are kept), no core files.
/// Returns 0, or -1 with errno.
int cplatform_confine_helper(int parent, unsigned long long address_space, unsigned long long cpu_seconds);

/// The signal that ended a process with wait status `status`, or 0 if it exited.
int cplatform_exit_signal(int status);

/// The exit code of a process that exited with wait status `status`, or -1 if a signal ended it.
int cplatform_exit_code(int status);

#endif
