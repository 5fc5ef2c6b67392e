// A font's bytes in a sealed memory file, which fontconfig, FreeType and HarfBuzz open by the
// name /proc/self/fd/N. All three map a font file by its name and read it for as long as the
// font is in use; a font file rewritten in place (`cp new.ttf Brand.ttf`) under those mappings
// faults (SIGBUS) or hands the parsers changed bytes. A sealed memory file can neither shrink
// nor change, so nothing under a mapping of it ever does.

import CPlatform
import Glibc

/// One font's bytes, sealed in memory, by the name the text libraries open it with.
///
/// Kept for the process's life, on purpose: Cairo keeps font faces (and the FreeType faces
/// mapping their files) keyed by file name in caches of its own, past the font map that made
/// them, so a name must never come to stand for other bytes — closing the memory file would
/// free its number for the next one. `FontStore` makes one per distinct font's bytes.
final class FontMemory: Sendable {
    /// The memory file; never closed (see above).
    let descriptor: Int32
    /// `/proc/self/fd/N`: what fontconfig is given, and FreeType and HarfBuzz then open.
    let path: String
    /// How many bytes it holds.
    let count: Int

    /// A sealed memory file holding `count` bytes that `fill` writes into `descriptor` (a new,
    /// empty memory file), returning how many it wrote.
    /// - Throws: `FontMemory.Failure`: the memory file could not be made, filled or sealed,
    ///   or `fill` wrote another number of bytes than `count` (`fill`'s own error goes through).
    init(count: Int, fill: (Int32) throws(Failure) -> Int) throws(Failure) {
        let descriptor = cplatform_memory_file("slicevid-font")
        guard descriptor >= 0 else { throw .system("cannot make a memory file (\(String(cString: strerror(errno))))") }
        do throws(Failure) {
            let written = try fill(descriptor)
            guard written == count else { throw .changed }
            guard cplatform_seal(descriptor) == 0 else { throw .system("cannot seal its memory file (\(String(cString: strerror(errno))))") }
        } catch {
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        self.count = count
        path = "/proc/self/fd/\(descriptor)"
    }

    /// A sealed memory file holding `bytes`.
    convenience init(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        try self.init(count: bytes.count) { descriptor throws(Failure) in
            var written = 0
            while written < bytes.count {
                let count = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw .system("cannot fill its memory file (\(String(cString: strerror(errno))))") }
                written += count
            }
            return written
        }
    }

    /// Closes a memory file that was never handed to the text libraries (a web font's packed
    /// copy, a copy of bytes already kept); never call it on one that was.
    func discard() { close(descriptor) }

    /// Why a memory file could not be made.
    enum Failure: Error, Equatable {
        /// The file read had another size than it had when opened: it changed while read.
        case changed
        /// The system refused (the words say what).
        case system(String)
    }

    /// Runs `body` with the bytes mapped read-only: sealed, they cannot change under it.
    /// - Returns: `body`'s result, or nil when the bytes could not be mapped.
    func withBytes<Result, Failure: Error>(_ body: (UnsafeRawBufferPointer) throws(Failure) -> Result) throws(Failure) -> Result? {
        guard count > 0 else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        guard let base = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0), base != MAP_FAILED else { return nil }
        defer { munmap(base, count) }
        return try body(UnsafeRawBufferPointer(start: base, count: count))
    }
}
