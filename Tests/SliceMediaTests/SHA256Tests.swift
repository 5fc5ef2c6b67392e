// SHA-256 through libcrypto: the published test vectors, fed whole and in uneven pieces, and
// files hashed by their bytes.

import Foundation
import Glibc
import Testing
@testable import SliceMedia

@Suite struct SHA256Tests {
    @Test func matchesThePublishedVectors() {
        // FIPS 180-2 examples.
        #expect(SHA256.hex(of: "") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(of: "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(of: "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test("a million 'a's, the FIPS 180-2 long vector, fed in uneven pieces")
    func longVectorInPieces() {
        let bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        let sha = SHA256()
        var at = 0, piece = 1
        bytes.withUnsafeBytes { all in
            while at < all.count {
                let end = min(all.count, at + piece)
                sha.update(UnsafeRawBufferPointer(rebasing: all[at..<end]))
                at = end
                piece = piece * 3 + 7
            }
        }
        #expect(sha.finalHex() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func hashesAFileByItsBytesAcrossChunks() throws {
        let path = NSTemporaryDirectory() + "slicevid-sha-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Larger than one read chunk, so the incremental path is exercised.
        let bytes = Data((0..<(3 << 19)).map { UInt8(truncatingIfNeeded: $0 * 31) })
        try bytes.write(to: URL(fileURLWithPath: path))
        let whole = SHA256()
        bytes.withUnsafeBytes { whole.update($0) }
        let before = try SHA256.hex(ofFileAt: path)
        #expect(before == whole.finalHex())

        var changed = bytes
        changed[changed.count - 1] ^= 1
        try changed.write(to: URL(fileURLWithPath: path))
        #expect(try SHA256.hex(ofFileAt: path) != before)
    }

    @Test func aMissingFileIsAnInputError() {
        #expect(throws: MediaError.self) { try SHA256.hex(ofFileAt: "/nonexistent/slicevid.png") }
        do {
            _ = try SHA256.hex(ofFileAt: "/nonexistent/slicevid.png")
        } catch {
            #expect(error.kind == .inputMissing)
            #expect(error.description.hasPrefix("/nonexistent/slicevid.png: "))
        }
    }

    @Test func aFIFOOrADeviceIsRefusedBeforeAByteIsRead() throws {
        // Read, a FIFO with no writer blocks and /dev/zero never ends: both must be refused
        // at once, by what fstat says, not by what reading would do.
        let fifo = NSTemporaryDirectory() + "slicevid-sha-fifo-\(UUID().uuidString)"
        try #require(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        for path in [fifo, "/dev/zero", NSTemporaryDirectory()] {
            do {
                // Stopped after a few chunks, so that reading /dev/zero, if it ever starts,
                // fails this test instead of hanging it.
                var chunks = 0
                let hash = try SHA256.hex(ofFileAt: path) {
                    chunks += 1
                    return chunks > 4
                }
                Issue.record("\(path) was hashed: \(hash ?? "stopped")")
            } catch {
                #expect(error.kind == .inputMissing)
                #expect(error.description == "\(path): is not a regular file (a FIFO, device, socket or folder); give an image file")
            }
        }
    }

    @Test func hashingStopsAtTheNextChunkWhenAskedTo() throws {
        // A sparse file: 256 MiB to hash, nothing on disk. Asked to stop after the second
        // chunk, hashing must end there, not read the rest.
        let path = NSTemporaryDirectory() + "slicevid-sha-big-\(UUID().uuidString)"
        try #require(FileManager.default.createFile(atPath: path, contents: nil))
        defer { unlink(path) }
        try #require(truncate(path, 256 << 20) == 0)
        var asked = 0
        let hash = try SHA256.hex(ofFileAt: path) {
            asked += 1
            return asked > 2
        }
        #expect(hash == nil, "hashing ran to the end instead of stopping")
        #expect(asked == 3)
        // Not stopped, the same file hashes to the digest of its bytes (zeros).
        let zeros = SHA256()
        let chunk = [UInt8](repeating: 0, count: 1 << 20)
        for _ in 0..<256 { chunk.withUnsafeBytes { zeros.update($0) } }
        #expect(try SHA256.hex(ofFileAt: path) == zeros.finalHex())
    }
}
