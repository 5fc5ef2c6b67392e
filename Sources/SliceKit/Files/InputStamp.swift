// What tells whether a file is still the one that was read, without reading it again: the
// survey's stamp of each input, and the cache's of each object it checked.

import Glibc

/// What tells whether a file at a path is still the one that was read, without reading it:
/// `stat` through links (a still may be a link) — device, inode, size, and the modification
/// and status-change times, which a rewrite in place or a rename over it moves.
package struct InputStamp: Equatable, Sendable {
    private let device: UInt64
    private let inode: UInt64
    private let bytes: Int64
    private let modified: [Int]
    private let changed: [Int]

    /// nil when nothing can be examined at `path`.
    package init?(path: String) {
        var info = stat()
        guard FileSystem.stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        bytes = Int64(info.st_size)
        modified = [Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
        changed = [Int(info.st_ctim.tv_sec), Int(info.st_ctim.tv_nsec)]
    }
}
