// What tells one file from another at the same path without reading it: its size, inode and
// modification time. A sidecar keeps the stamps of the files slicevid wrote; a file at an
// output path is slicevid's to replace only while its stamp still matches.

import Foundation
import Glibc
import SliceKit

/// The identity of a regular file as `lstat` sees it (never through a symlink).
package struct FileStamp: Sendable, Equatable {
    package var bytes: Int
    /// nil in stamps made from sidecars of slicevid 0.2.0, which recorded sizes only.
    package var inode: Int?
    /// Seconds and nanoseconds since the epoch; nil like `inode`.
    package var modified: Modified?

    /// A modification time to the nanosecond, as `stat` gives it.
    package struct Modified: Sendable, Equatable {
        package var seconds: Int
        package var nanoseconds: Int

        /// `SECONDS.NANOSECONDS` (nine digits), the sidecar's form.
        var text: String {
            let nanos = String(nanoseconds)
            return "\(seconds)." + String(repeating: "0", count: max(0, 9 - nanos.count)) + nanos
        }

        init(seconds: Int, nanoseconds: Int) {
            self.seconds = seconds
            self.nanoseconds = nanoseconds
        }

        /// Parses `text`; nil unless it is exactly `SECONDS.NANOSECONDS`.
        init?(_ text: String) {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[1].count == 9, let seconds = Int(parts[0]), let nanoseconds = Int(parts[1]),
                  parts[1].allSatisfy({ $0.isASCII && $0.isNumber }), nanoseconds >= 0 else { return nil }
            self.init(seconds: seconds, nanoseconds: nanoseconds)
        }
    }

    package init(bytes: Int, inode: Int?, modified: Modified?) {
        self.bytes = bytes
        self.inode = inode
        self.modified = modified
    }

    /// The stamp of the regular file at `path`; nil when nothing is there, or it is a
    /// symlink, a folder or anything else that is not a regular file.
    package init?(path: String) {
        var info = stat()
        guard FileSystem.lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        self.init(bytes: Int(info.st_size), inode: Int(truncatingIfNeeded: info.st_ino),
                  modified: Modified(seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec)))
    }

    /// Whether `actual` (read from disk) is the file this stamp describes: the same size, and
    /// the same inode and modification time where this stamp knows them.
    func matches(_ actual: FileStamp) -> Bool {
        bytes == actual.bytes && (inode == nil || inode == actual.inode) && (modified == nil || modified == actual.modified)
    }

    /// The stamp as a sidecar keeps it.
    var json: [String: Any] {
        var object: [String: Any] = ["bytes": bytes]
        if let inode { object["inode"] = inode }
        if let modified { object["modified"] = modified.text }
        return object
    }

    /// Reads a stamp a sidecar kept; nil when it is not complete and well-formed: a size a
    /// record can hold, an inode that is a whole number a 64-bit `ino_t` gives (as slicevid
    /// writes it, wrapped to a signed one), and the time as `SECONDS.NANOSECONDS`. Numbers are
    /// checked as doubles before they are converted, so `1e30` is refused, never trapped on.
    init?(json: Any) {
        guard let object = json as? [String: Any], let bytes = OutputRecord.whole(object["bytes"], in: 0...OutputRecord.maximumBytes),
              let number = object["inode"] as? NSNumber, number.doubleValue.isFinite, number.doubleValue == number.doubleValue.rounded(),
              number.doubleValue >= -0x1p63, number.doubleValue < 0x1p63,
              let modified = (object["modified"] as? String).flatMap(Modified.init) else { return nil }
        self.init(bytes: bytes, inode: Int(number.int64Value), modified: modified)
    }
}
