// SHA-256 from libavutil (av_sha_*): fingerprints of input files and settings must be stable
// across machines and releases, so they use a standard hash we already link, not Hasher.

import CFFmpeg
import Glibc
import SliceKit

/// An incremental SHA-256 digest (one libavutil `AVSHA` context).
///
/// Not thread-safe: one owner feeds it and reads the digest once.
package final class SHA256 {
    private let context: OpaquePointer

    /// Starts an empty digest.
    package init() {
        // av_sha_alloc only fails when out of memory, which nothing here could recover from.
        guard let context = av_sha_alloc() else { fatalError("av_sha_alloc: out of memory") }
        self.context = context
        av_sha_init(context, 256)
    }

    deinit { av_free(UnsafeMutableRawPointer(context)) }

    /// Adds bytes to the digest.
    package func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        av_sha_update(context, base.assumingMemoryBound(to: UInt8.self), bytes.count)
    }

    /// Adds the UTF-8 bytes of `text` to the digest.
    package func update(_ text: String) {
        var text = text
        text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    /// Ends the digest and returns it as 64 lowercase hex digits. Call once.
    package func finalHex() -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        av_sha_final(context, &digest)
        return SHA256.hex(digest)
    }

    /// The SHA-256 of `text`'s UTF-8 bytes, as hex.
    package static func hex(of text: String) -> String {
        let sha = SHA256()
        sha.update(text)
        return sha.finalHex()
    }

    /// The SHA-256 of a file's bytes, as hex, read in 1 MiB chunks.
    /// - Parameter stop: asked before each chunk; when it answers true, hashing ends at once
    ///   (a signal must not wait for a 50 GB file).
    /// - Returns: the digest, or nil when `stop` ended it.
    /// - Throws: `MediaError(.inputMissing)` when the file does not exist, cannot be read, or
    ///   is not a regular file (a FIFO would block, a device never end).
    package static func hex(ofFileAt path: String, stop: () -> Bool = { false }) throws(MediaError) -> String? {
        // O_NONBLOCK: opening a FIFO must not wait for a writer before it can be refused.
        let descriptor = FileSystem.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = errno == ENOENT ? "no such file" : "cannot be read (\(String(cString: strerror(errno))))"
            throw MediaError(.inputMissing, subject: path, message: reason)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw MediaError(.inputMissing, subject: path, message: "is not a regular file (a FIFO, device, socket or folder); give an image file")
        }
        let sha = SHA256()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            if stop() { return nil }
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw MediaError(.inputMissing, subject: path, message: "cannot be read (\(String(cString: strerror(errno))))")
            }
            sha.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
        return sha.finalHex()
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
