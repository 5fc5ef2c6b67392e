// Reading a preset or manifest file: only a regular file (a FIFO would block the read, a device
// never end it), and only up to a size no real settings file comes near, so a wrong path or a
// hostile one costs nothing.

import Foundation
import Glibc

/// A small settings file (a preset, a manifest) read whole, within bounds.
package enum SettingsFile {
    /// The most bytes a preset or manifest file may hold: 16 MiB, far above any written by
    /// hand or by pipeline code (a 10 000-job manifest is under 1 MiB).
    package static let maximumSize = 16 << 20

    /// Why a file could not be read.
    package enum Failure: Error, Equatable {
        /// Missing or unreadable, with the reason.
        case missing(String)
        /// Not a regular file: what it is instead (a folder, a FIFO, a device, a socket).
        case notRegular(String)
        /// Larger than `maximumSize`; its size in bytes.
        case tooLarge(Int)
        /// The path, or a name in it, is longer than the system takes (ENAMETOOLONG).
        case nameTooLong

        /// The reason, as the end of a message that starts with the path.
        package var reason: String {
            switch self {
            case .missing(let why): why
            case .notRegular(let what): "\(what), not a file (only regular files are read)"
            case .tooLarge(let bytes): "is \(bytes) bytes; at most \(SettingsFile.maximumSize >> 20) MiB are read"
            case .nameTooLong: "name too long (a path of at most \(PATH_MAX) bytes, each name at most \(NAME_MAX))"
            }
        }
    }

    /// The bytes of the regular file at `path`.
    /// - Parameter limit: the most bytes read (`maximumSize` for presets and manifests; more
    ///   for a campaign's reports).
    /// - Throws: `Failure`; a FIFO or device is refused by its name before it is opened.
    package static func read(path: String, limit: Int = maximumSize) throws(Failure) -> Data {
        var named = stat()
        guard FileSystem.stat(path, &named) == 0 else { throw missing(errno) }
        try requireRegular(named, limit: limit)
        let descriptor = FileSystem.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw missing(errno) }
        defer { close(descriptor) }
        // Checked again on what was opened: the name may have been swapped meanwhile.
        var opened = stat()
        guard fstat(descriptor, &opened) == 0 else { throw missing(errno) }
        try requireRegular(opened, limit: limit)
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while data.count <= limit {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw missing(errno) }
            if count == 0 { return data }
            data.append(contentsOf: chunk[..<count])
        }
        throw .tooLarge(max(data.count, Int(opened.st_size)))
    }

    private static func requireRegular(_ status: stat, limit: Int) throws(Failure) {
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notRegular(FileKind.described(status.st_mode)) }
        if Int(status.st_size) > limit { throw .tooLarge(Int(status.st_size)) }
    }

    private static func missing(_ code: Int32) -> Failure {
        switch code {
        case ENOENT, ENOTDIR: .missing("no such file")
        case EACCES, EPERM: .missing("cannot be read (permission denied)")
        case ENAMETOOLONG: .nameTooLong
        default: .missing("cannot be opened (\(String(cString: strerror(code))))")
        }
    }
}
