// `probe` of a sequence pattern reads local regular files only: a FIFO frame is refused (66,
// named) instead of hanging the read, and a pattern is never taken for another protocol.

import Foundation
import Glibc
import Testing

@Suite(.timeLimit(.minutes(10))) struct ProbeSequenceTests {
    /// Renders a 4-frame PNG sequence into `folder/sub`.
    private func sequence(in folder: String, sub: String) throws {
        try FileManager.default.createDirectory(atPath: folder + "/" + sub, withIntermediateDirectories: true)
        let made = try CLI.make(tinyClip(["--hold": "0", "--duration": "0.3"]) + ["-o", sub + "/%03d.png"], in: folder)
        try #require(made.status == 0, "\(made)")
    }

    @Test func aFIFOFrameIsRefusedNamingIt() throws {
        try withScratchFolder { folder in
            try sequence(in: folder, sub: "seq")
            #expect(unlink(folder + "/seq/001.png") == 0 && mkfifo(folder + "/seq/001.png", 0o600) == 0)
            let probe = try CLI.run(["probe", "seq/%03d.png"], in: folder, timeout: 60)
            #expect(probe.status == 66, "\(probe)")
            #expect(probe.stderrIsOneLine && probe.stderr.contains("seq/001.png: is a named pipe (FIFO)"), "\(probe)")
        }
    }

    @Test func aPatternIsNeverTakenForAnotherProtocol() throws {
        try withScratchFolder { folder in
            // A folder named like a protocol: libavformat would read `http:/000.png` over HTTP.
            try sequence(in: folder, sub: "http:")
            let probe = try CLI.run(["probe", "http:/%03d.png"], in: folder, timeout: 60)
            #expect(probe.status == 0, "\(probe)")
            #expect(probe.stdout.contains("frames=4"), "\(probe)")
        }
    }
}
