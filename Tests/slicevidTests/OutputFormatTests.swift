// The outputs beyond MP4 and PNG: a .y4m file, y4m streamed to stdout with `-o -` (so frames
// can be piped into any encoder), and `-o null`, which renders and writes nothing.

import Foundation
import SliceKit
import SliceMedia
import Testing

@Suite("slicevid make -o y4m, -, null")
struct OutputFormatTests {
    @Test("a .y4m output holds every frame, uncompressed 4:2:0")
    func y4mFile() throws {
        try withScratchFolder { folder in
            let result = try CLI.make(tinyClip + ["-o", "clip.y4m"], in: folder)
            #expect(result.status == 0, "\(result)")
            let info = try MediaReader.info(path: folder + "/clip.y4m")
            #expect(info.width == 64 && info.height == 36 && info.pixelFormat == "yuv420p")
            #expect(info.frameCount == tinyClipFrames)
            // Raw frames, read straight from the file (MediaReader would treat the untagged
            // samples as BT.601 and convert them): the last is the destination card exactly.
            let data = try #require(FileManager.default.contents(atPath: folder + "/clip.y4m"))
            let frames = try y4mFrames(data, width: 64, height: 36)
            try #require(frames.count == tinyClipFrames)
            let destination = DemoCards.destination(width: 64, height: 36).planar(.yuv420p)
            #expect(frames[tinyClipFrames - 1] == samples(of: destination))
            let source = DemoCards.source(width: 64, height: 36).planar(.yuv420p)
            #expect(frames[0] == samples(of: source))
        }
    }

    @Test("-o - streams the same y4m to stdout, and only that; logs stay on stderr")
    func y4mToStdout() throws {
        try withScratchFolder { folder in
            let file = try CLI.make(tinyClip + ["-o", "clip.y4m"], in: folder)
            try #require(file.status == 0, "\(file)")
            let stream = try CLI.make(tinyClip + ["-o", "-"], in: folder)
            #expect(stream.status == 0, "\(stream)")
            #expect(stream.stdoutData.starts(with: Data("YUV4MPEG2 W64 H36 F10:1".utf8)))
            #expect(stream.stdoutData == FileManager.default.contents(atPath: folder + "/clip.y4m"))
            #expect(stream.stderr.contains("slicevid: rendering"), "\(stream)")
            #expect(FolderSnapshot(folder).entries.keys.sorted() == ["clip.y4m"], "-o - must not write a file")
        }
    }

    @Test("a broken first still writes nothing to stdout: no y4m header a reader would take for a stream")
    func brokenStillStreamsNothing() throws {
        try withScratchFolder { folder in
            let good = try Still.write(DemoCards.destination(width: 64, height: 36), "good.png", in: folder)
            _ = FileManager.default.createFile(atPath: folder + "/bad.png", contents: Data("\u{89}PNG\r\n\u{1A}\nbroken".utf8))
            let stream = try CLI.make(tinyClip + ["--from", "bad.png", "--to", good, "-o", "-"], in: folder)
            #expect(stream.status == 65, "\(stream)")
            #expect(stream.stdoutData.isEmpty, "\(stream.stdoutData.count) bytes on stdout")
            #expect(stream.stderrIsOneLine)
        }
    }

    @Test("a reader that closes -o - early ends the run with 74 and no partial file of the other outputs")
    func closedPipe() throws {
        try withScratchFolder { folder in
            let pipe = Pipe()
            // 640x360 frames are larger than a pipe's buffer, so the writer is blocked when the
            // reader goes away.
            let arguments = ["make"] + tinyClip(["--size": "640x360"]) + ["-o", "-", "-o", "out.mp4"]
            let result = try CLI.run(arguments, in: folder, standardOutput: pipe) { _, _ in
                let start = pipe.fileHandleForReading.readData(ofLength: 4096)
                #expect(start.starts(with: Data("YUV4MPEG2".utf8)))
                try pipe.fileHandleForReading.close()
            }
            #expect(result.status == 74 && !result.signalled, "killed by SIGPIPE leaves temporary files: \(result)")
            #expect(result.stderr.contains("-o -"), "\(result)")
            #expect(leftovers(in: folder).isEmpty, "left behind: \(leftovers(in: folder))")
            #expect(FolderSnapshot(folder).entries.isEmpty)
        }
    }

    @Test("-o null renders every frame and writes nothing")
    func null() throws {
        try withScratchFolder { folder in
            let result = try CLI.make(tinyClip + ["-o", "null"], in: folder)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("rendered \(tinyClipFrames) frames, wrote nothing"), "\(result)")
            #expect(FolderSnapshot(folder).entries.isEmpty)
        }
    }
}

/// The frames of a 4:2:0 YUV4MPEG2 stream, each as its Y, U and V samples back to back.
private func y4mFrames(_ data: Data, width: Int, height: Int) throws -> [[UInt8]] {
    let bytes = [UInt8](data)
    let newline = UInt8(ascii: "\n")
    var offset = try #require(bytes.firstIndex(of: newline)) + 1
    let size = width * height + 2 * ((width + 1) / 2) * ((height + 1) / 2)
    var frames: [[UInt8]] = []
    while offset < bytes.count {
        try #require(bytes[offset...].starts(with: Array("FRAME".utf8)), "frame \(frames.count) has no FRAME header")
        offset = try #require(bytes[offset...].firstIndex(of: newline)) + 1
        try #require(offset + size <= bytes.count, "frame \(frames.count) is cut short")
        frames.append(Array(bytes[offset..<(offset + size)]))
        offset += size
    }
    return frames
}

/// A planar image's samples without row padding, plane after plane.
private func samples(of image: PlanarImage) -> [UInt8] {
    image.planes.flatMap { plane in (0..<plane.height).flatMap { y in Array(UnsafeBufferPointer(start: plane.row(y), count: plane.width)) } }
}
