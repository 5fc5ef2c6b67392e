// SHA-256 from OpenSSL's libcrypto (EVP): fingerprints of input files and settings must be
// stable across machines and releases, so they use a standard hash, not Hasher; libcrypto's
// uses the machine's SHA instructions, so hashing a font or a still costs a fraction of
// reading it.

import CCrypto
import Glibc
import SliceKit

/// An incremental SHA-256 digest (one libcrypto `EVP_MD_CTX`).
///
/// Not thread-safe: one owner feeds it and reads the digest once.
package final class SHA256 {
    private let context: OpaquePointer

    /// Starts an empty digest.
    package init() {
        // These fail only when out of memory (SHA-256 is always built in), which nothing here
        // could recover from.
        guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new: out of memory") }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else { fatalError("EVP_DigestInit_ex: SHA-256 unavailable") }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds bytes to the digest.
    package func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        guard EVP_DigestUpdate(context, base, bytes.count) == 1 else { fatalError("EVP_DigestUpdate failed") }
    }

    /// Adds the UTF-8 bytes of `text` to the digest.
    package func update(_ text: String) {
        var text = text
        text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    /// Ends the digest and returns it as 64 lowercase hex digits. Call once.
    package func finalHex() -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1, length == 32 else { fatalError("EVP_DigestFinal_ex failed") }
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
