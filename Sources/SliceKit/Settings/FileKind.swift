// What a path that is not a regular file holds, in the words messages use for it, so a still,
// a preset, a manifest and a report all say "is a named pipe (FIFO)" alike.

import Glibc

/// The kinds of file a path can hold.
package enum FileKind {
    /// `is a folder`, `is a named pipe (FIFO)`, `is a character device`, … for `mode`'s kind.
    package static func described(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: "is a regular file"
        case S_IFDIR: "is a folder"
        case S_IFIFO: "is a named pipe (FIFO)"
        case S_IFCHR: "is a character device"
        case S_IFBLK: "is a block device"
        case S_IFSOCK: "is a socket"
        case S_IFLNK: "is a symbolic link"
        default: "is not a regular file"
        }
    }
}
