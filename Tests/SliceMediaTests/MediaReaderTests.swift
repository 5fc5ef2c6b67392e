// MediaReader, the check side of the media tests: it must itself read stills and refuse
// what is not media.

import Foundation
import SliceKit
import SliceMedia
import Testing

@Suite("MediaReader")
struct MediaReaderTests {
    @Test("a PNG still is one frame of png at its size")
    func stillInfo() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/still.png"
            try StillWriter.write(Fixture.blocks(width: 48, height: 27), to: path, format: .png)
            let info = try MediaReader.info(path: path)
            #expect(info.codecName == "png")
            #expect(info.width == 48 && info.height == 27)
            #expect(info.pixelFormat == "rgba")
            #expect(info.frameCount == 1)
        }
    }

    @Test("a full-range JPEG reads back with its own range, not as studio video")
    func jpegRange() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/still.jpeg"
            let image = Fixture.blocks(width: 64, height: 32)
            try StillWriter.write(image, to: path, format: .jpeg)
            let decoded = try #require(try MediaReader.frames(path: path, layout: .gbrp).first)
            let expected = image.planar(.gbrp)
            #expect(meanAbsoluteError(decoded, expected) < 3)
        }
    }

    @Test("what is not media is .inputInvalid")
    func notMedia() throws {
        try withTemporaryDirectory { dir in
            let path = "\(dir)/notes.mp4"
            try Data("not a video\n".utf8).write(to: URL(fileURLWithPath: path))
            let error = #expect(throws: MediaError.self) { try MediaReader.info(path: path) }
            #expect(error?.kind == .inputInvalid)
            #expect(error?.subject == path)
        }
    }

    @Test("a missing file, a folder or a FIFO is .inputMissing, named, and nothing waits on the FIFO")
    func notAFile() throws {
        try withTemporaryDirectory { dir in
            let fifo = "\(dir)/pipe.mp4"
            #expect(mkfifo(fifo, 0o600) == 0)
            for path in ["\(dir)/missing.mp4", dir, fifo] {
                let error = #expect(throws: MediaError.self) { try MediaReader.info(path: path) }
                #expect(error?.kind == .inputMissing, "\(path): \(String(describing: error))")
                #expect(error?.subject == path)
            }
        }
    }
}
