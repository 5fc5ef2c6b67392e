// What a still must be before anything decodes it: a regular file (a FIFO, a device or a socket
// is refused at once, without an open that could block), within the size limits (checked from
// the header: a complete, valid 30000x30000 PNG is "too large", not "corrupt"), and decoding
// stops when asked to.

import CFFmpeg
import Foundation
import SliceKit
@testable import SliceMedia
import Synchronization
import Testing

@Suite("StillDecoder inputs: file kinds, size limits, cancellation")
struct StillInputTests {
    /// The error loading `path` throws.
    func loadError(_ path: String, isCancelled: @escaping @Sendable () -> Bool = { false }) -> MediaError? {
        #expect(throws: MediaError.self) {
            _ = try StillDecoder.load(path: path, width: 32, height: 18, fit: .cover, background: .black, isCancelled: isCancelled)
        }
    }

    /// A UNIX socket bound at `path` (the descriptor is closed again; the file stays).
    static func makeSocket(at path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        } == 0
    }

    @Test("a FIFO, a character device, a socket and a folder are refused at once, named, with what they are")
    func notRegularFiles() throws {
        try withTemporaryDirectory { dir in
            let fifo = "\(dir)/pipe.png", socketPath = "\(dir)/s.png"
            #expect(mkfifo(fifo, 0o600) == 0)
            #expect(Self.makeSocket(at: socketPath))
            // Nothing ever writes to the FIFO: a check that opened it for reading and waited
            // would hang here, and one that read /dev/zero would read forever.
            for (path, what) in [(fifo, "is a named pipe (FIFO)"), ("/dev/zero", "is a character device"),
                                 (socketPath, "is a socket"), (dir, "is a folder")] {
                for error in [loadError(path), #expect(throws: MediaError.self) { try StillDecoder.checkReadable(path: path) }] {
                    #expect(error?.kind == .inputMissing, "\(path): \(String(describing: error))")
                    #expect(error?.subject == path)
                    #expect(error?.message.hasPrefix(what) == true, "\(path): \(String(describing: error?.message))")
                }
            }
        }
    }

    @Test("checkReadable passes a readable regular file and refuses a missing or unreadable one")
    func checkReadable() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/still.png"
            try StillWriter.write(RGBAImage(width: 4, height: 4), to: path, format: .png)
            try StillDecoder.checkReadable(path: path)
            let missing = #expect(throws: MediaError.self) { try StillDecoder.checkReadable(path: "\(dir)/none.png") }
            #expect(missing?.kind == .inputMissing && missing?.message == "no such file")
            // Unreadable: only meaningful when the tests do not run as root.
            if geteuid() != 0 {
                #expect(chmod(path, 0) == 0)
                let denied = #expect(throws: MediaError.self) { try StillDecoder.checkReadable(path: path) }
                #expect(denied?.message.contains("permission denied") == true)
            }
        }
    }

    @Test("a complete PNG larger than the limits is refused from its header, naming its size and the limit",
          arguments: [(30000, 30000), (1, 10_000_000), (65536, 1), (10001, 10000)])
    func tooLarge(_ size: (Int, Int)) throws {
        try withTemporaryDirectory { dir in
            // A real IHDR, then picture data that is not even valid: the size is all that is read.
            let header = DamagedStills.bigEndian(UInt32(size.0)) + DamagedStills.bigEndian(UInt32(size.1)) + [8, 2, 0, 0, 0]
            let bytes = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + DamagedStills.pngChunk("IHDR", header)
                + DamagedStills.pngChunk("IDAT", [0xDE, 0xAD, 0xBE, 0xEF]) + DamagedStills.pngChunk("IEND", [])
            let path = "\(dir)/large.png"
            try DamagedStills.write(bytes, to: path)
            let error = loadError(path)
            #expect(error?.kind == .inputInvalid)
            #expect(error?.description == "\(path): is \(size.0)x\(size.1) pixels, larger than slicevid decodes (at most 100 megapixels and 65535 pixels on a side)")
        }
    }

    @Test("a still at the limits' edge is not refused for its size")
    func atTheLimit() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/long.png"
            try StillWriter.write(RGBAImage(width: 65535, height: 2, color: RGBAColor(red: 9, green: 99, blue: 199)), to: path, format: .png)
            let loaded = try StillDecoder.load(path: path, width: 32, height: 18, fit: .cover, background: .black)
            #expect(isClose(loaded[16, 9], RGBAColor(red: 9, green: 99, blue: 199), within: 1))
        }
    }

    @Test("a decode that is asked to stop stops, and says so")
    func cancelled() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/still.png"
            try StillWriter.write(Fixture.noise(width: 64, height: 64), to: path, format: .png)
            // Asked to stop after the header was read: FFmpeg's first read is refused.
            let polls = Atomic<Int>(0)
            let error = loadError(path) { polls.add(1, ordering: .relaxed).newValue > 1 }
            #expect(error?.kind == .inputInvalid)
            #expect(error?.message == "not decoded: the run was stopped")
            #expect(polls.load(ordering: .relaxed) >= 2)
        }
    }

    @Test("FFmpeg's words in a refusal are one line of at most ~80 characters, control characters escaped")
    func quotedText() {
        let long = String(repeating: "a", count: 10_000_000)
        #expect(FFmpegLog.quoted(long).count == 81)
        #expect(FFmpegLog.quoted("bad\u{1B}[31mred\nline\r\u{7}\n") == "bad\\u{1B}[31mred\\nline\\r\\u{7}")
    }
}
