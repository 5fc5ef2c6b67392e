// A `%` in a name: a file that exists is read as that file, and only a name that names nothing
// is a sequence's pattern, whose demuxer is image2 and never the pattern opened as one file.

import Foundation
@testable import SliceMedia
import SliceKit
import Testing

@Suite("Names with %")
struct PercentNameTests {
    @Test("an existing file whose name holds % is read as that file, not as a pattern")
    func fileWithPercent() throws {
        try withTemporaryDirectory { dir in
            for name in ["p%.png", "a%%b.png", "f%05d.png"] {
                let path = "\(dir)/\(name)"
                try StillWriter.write(Fixture.blocks(width: 48, height: 26), to: path, format: .png)
                let info = try MediaReader.info(path: path)
                #expect(info.codecName == "png" && info.width == 48 && info.height == 26 && info.frameCount == 1, "\(name)")
                let frames = try MediaReader.frames(path: path, layout: .gbrp)
                #expect(frames.count == 1 && frames.first?.width == 48, "\(name)")
            }
        }
    }

    @Test("an empty file whose name holds % is not media (.inputInvalid), named")
    func emptyFileWithPercent() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/e%.bin"
            #expect(FileManager.default.createFile(atPath: path, contents: Data()))
            let error = #expect(throws: MediaError.self) { try MediaReader.info(path: path) }
            #expect(error?.kind == .inputInvalid && error?.subject == path, "\(String(describing: error))")
        }
    }

    @Test("a pattern that matches no frames is .inputMissing, named")
    func patternWithoutFrames() throws {
        try withTemporaryDirectory { dir in
            for path in ["\(dir)/x%05d.png", "\(dir)/x%.png", "\(dir)/none/%03d.png"] {
                let error = #expect(throws: MediaError.self) { try MediaReader.info(path: path) }
                #expect(error?.kind == .inputMissing && error?.subject == path, "\(String(describing: error))")
            }
        }
    }

    @Test("the pattern demuxer given an existing file's name refuses it instead of crashing")
    func patternDemuxerOverAFile() throws {
        // MediaReader sends no existing file here; a file made under the name meanwhile could
        // still be. Before image2 was named outright, libavformat probed such a name through our
        // reader and, when the probe failed, closed that reader with avio_closep: a crash.
        try withTemporaryDirectory { dir in
            let empty = "\(dir)/e%.bin"
            #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
            let still = "\(dir)/p%.png"
            try StillWriter.write(Fixture.blocks(width: 48, height: 26), to: still, format: .png)
            for path in [empty, still] {
                let error = #expect(throws: MediaError.self) { _ = try Demuxer(pattern: path) }
                #expect(error?.subject == path, "\(String(describing: error))")
            }
        }
    }
}
