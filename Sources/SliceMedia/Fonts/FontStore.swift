// Font files read once, checked and sealed in memory before any text library sees them: the
// file's bytes (at most 64 MiB) are copied into a memory file while they are hashed, their
// header and table directories are checked against the limits (FontContainer), a WOFF or WOFF2
// font is unpacked into plain OpenType, and the result is sealed. The text libraries open only
// the sealed copy, so a font rewritten in place while text is drawn changes nothing under them.

import CPlatform
import CText
import Glibc
import SliceKit
import Synchronization

/// A font file as the text engine uses it.
package struct LoadedFont: Sendable {
    /// The file, as named.
    package let path: String
    /// SHA-256 (hex) of the file's bytes as read: what a run's fingerprint and plan saw.
    package let digest: String
    /// The fonts handed to fontconfig: the file itself, or what a web font unpacked to (one a
    /// face for a WOFF2 collection).
    let memories: [FontMemory]
}

/// Every font file the process has read, by path and by content.
package enum FontStore {
    /// The most bytes of distinct fonts one process keeps (each is kept for its life: see
    /// `FontMemory`); a campaign uses a few fonts, the default set is 8.2 MB.
    static let maxKept = 1 << 30

    /// A file's identity by its name: the copy in memory is read again when it changes.
    struct Identity: Equatable {
        var device: UInt64, inode: UInt64, size: Int64, modified: Int, modifiedNanoseconds: Int
        var changed: Int, changedNanoseconds: Int

        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = info.st_mtim.tv_sec
            modifiedNanoseconds = info.st_mtim.tv_nsec
            changed = info.st_ctim.tv_sec
            changedNanoseconds = info.st_ctim.tv_nsec
        }
    }

    private struct State: ~Copyable {
        /// The last read of each path, and the file's identity just before it.
        var byPath: [String: (identity: Identity, font: LoadedFont)] = [:]
        /// Each distinct file's fonts in memory, by the file's digest.
        var byDigest: [String: [FontMemory]] = [:]
        var kept = 0
    }

    private static let state = Mutex(State())

    /// The font file at `path`, read (again, when it changed since the last read), checked and
    /// sealed in memory.
    /// - Throws: `TextError` naming the file: `.fontMissing` (missing, unreadable, not a
    ///   regular file), `.fontInvalid` (too big, not a font, damaged, over a limit of
    ///   `FontContainer.Limits`), `.fontChanged` (its size changed while it was read),
    ///   `.unavailable` (out of memory files or memory, or the text libraries missing).
    package static func load(_ path: String) throws(TextError) -> LoadedFont {
        try state.withLock { (state: inout State) throws(TextError) -> LoadedFont in
            var named = stat()
            if FileSystem.stat(path, &named) == 0, let known = state.byPath[path], known.identity == Identity(named) { return known.font }
            let subject = "font \(InputText.quoted(path))"
            let file: InputFile
            do throws(MediaError) {
                file = try InputFile(path: path)
            } catch {
                throw TextError(.fontMissing, subject: subject, message: error.message)
            }
            var info = stat()
            guard fstat(file.descriptor, &info) == 0 else { throw TextError(.fontMissing, subject: subject, message: "cannot be read") }
            let identity = Identity(info)
            guard Int64(info.st_size) <= Int64(FontContainer.Limits.bytes) else {
                throw TextError(.fontInvalid, subject: subject,
                                message: "is \(FontBytes.mebibytes(Int(info.st_size))); font files up to \(FontBytes.mebibytes(FontContainer.Limits.bytes)) are accepted")
            }
            let (copy, digest) = try read(file, count: Int(info.st_size), subject: subject)
            let memories: [FontMemory]
            if let known = state.byDigest[digest] {
                copy.discard()
                memories = known
            } else {
                memories = try checked(copy, subject: subject)
                let bytes = memories.reduce(0) { $0 + $1.count }
                guard state.kept + bytes <= maxKept else {
                    memories.forEach { $0.discard() }
                    throw TextError(.unavailable, subject: subject,
                                    message: "would take this process past \(FontBytes.mebibytes(maxKept)) of distinct fonts in memory; run the rest in a new process")
                }
                state.kept += bytes
                state.byDigest[digest] = memories
            }
            let font = LoadedFont(path: path, digest: digest, memories: memories)
            state.byPath[path] = (identity, font)
            return font
        }
    }

    /// The file's bytes copied into a memory file (not sealed yet) while they are hashed.
    private static func read(_ file: InputFile, count: Int, subject: String) throws(TextError) -> (FontMemory, String) {
        let sha = SHA256()
        let memory: FontMemory
        do throws(FontMemory.Failure) {
            memory = try FontMemory(count: count) { descriptor throws(FontMemory.Failure) in
                var copied = 0
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
                defer { buffer.deallocate() }
                // One byte past the size seen at the open: a file that grew while read is caught.
                while copied <= count {
                    let got = pread(file.descriptor, buffer.baseAddress, buffer.count, off_t(copied))
                    if got < 0 && errno == EINTR { continue }
                    if got < 0 { throw .system("cannot be read (\(String(cString: strerror(errno))))") }
                    if got == 0 { break }
                    guard copied + got <= count else { throw .changed }
                    sha.update(UnsafeRawBufferPointer(rebasing: buffer[0..<got]))
                    var written = 0
                    while written < got {
                        let put = write(descriptor, buffer.baseAddress! + written, got - written)
                        if put < 0 && errno == EINTR { continue }
                        guard put > 0 else { throw .system("cannot be copied into memory (\(String(cString: strerror(errno))))") }
                        written += put
                    }
                    copied += got
                }
                return copied
            }
        } catch {
            switch error {
            case .changed:
                throw TextError(.fontChanged, subject: subject, message: "changed while it was read (its size is not the one it had when opened); run again once it is final")
            case .system(let why):
                throw TextError(.unavailable, subject: subject, message: why)
            }
        }
        return (memory, sha.finalHex())
    }

    /// `copy`'s header checked, and the fonts fontconfig gets: `copy` itself, or what a web
    /// font unpacks to, each checked again as a plain font (`copy` is then discarded).
    private static func checked(_ copy: FontMemory, subject: String) throws(TextError) -> [FontMemory] {
        func refused(_ refusal: FontContainer.Refusal) -> TextError { TextError(.fontInvalid, subject: subject, message: refusal.message) }
        let unmapped = TextError(.unavailable, subject: subject, message: "cannot map its copy in memory")
        let read: FontContainer?
        do throws(FontContainer.Refusal) {
            read = try copy.withBytes { bytes throws(FontContainer.Refusal) in try FontContainer(bytes) }
        } catch {
            copy.discard()
            throw refused(error)
        }
        guard let container = read else {
            copy.discard()
            throw unmapped
        }
        guard container.kind == .woff || container.kind == .woff2 else { return [copy] }
        defer { copy.discard() }
        guard slicevid_text_load() != 0 else {
            throw TextError(.unavailable, subject: subject, message: "unpacking a web font needs FreeType, which did not load (\(InputText.excerpt(String(cString: slicevid_text_error()))))")
        }
        var unpacked: [FontMemory] = []
        for face in 0..<container.faces {
            var length = 0
            let made = copy.withBytes { bytes in
                slicevid_text_unpack_web_font(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, Int32(face),
                                              FontContainer.Limits.bytes, &length)
            }
            guard let made = made ?? nil else {
                unpacked.forEach { $0.discard() }
                throw TextError(.fontInvalid, subject: subject, message: "is damaged: FreeType cannot unpack its face \(face)")
            }
            defer { free(made) }
            let plain = UnsafeRawBufferPointer(start: made, count: length)
            do throws(FontContainer.Refusal) {
                _ = try FontContainer(plain)
            } catch {
                unpacked.forEach { $0.discard() }
                throw refused(error)
            }
            do throws(FontMemory.Failure) {
                unpacked.append(try FontMemory(plain))
            } catch {
                unpacked.forEach { $0.discard() }
                throw TextError(.unavailable, subject: subject, message: "cannot keep its unpacked face \(face) in memory")
            }
        }
        return unpacked
    }
}
