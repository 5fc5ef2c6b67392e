// A decode helper's answer is read by a parent that trusts none of it: a picture written by a
// helper maps back to the same pixels, and an answer whose numbers are out of range (or point
// past its end) is refused before any of them is used.

import CPlatform
import Foundation
import Glibc
import SliceKit
@testable import SliceMedia
import Testing

@Suite("a decode helper's answer")
struct HelperReplyTests {
    /// A 24x10 PNG decoded here (RGB24), written as a helper answers, in a memory file.
    private func writtenAnswer(in dir: String) throws -> (descriptor: Int32, still: DecodedStill) {
        let path = dir + "/blocks.png"
        try StillWriter.write(Fixture.blocks(width: 24, height: 10), to: path, format: .png)
        let still = try StillDecoder.decode(path: path, isCancelled: { false })
        let descriptor = cplatform_memory_file("test-answer")
        try #require(descriptor >= 0)
        try HelperReply.write(still, to: descriptor)
        return (descriptor, still)
    }

    private func size(_ descriptor: Int32) -> Int {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? Int(info.st_size) : 0
    }

    @Test("a picture a helper wrote maps back to the same pixels and description")
    func roundTrip() throws {
        try withTemporaryDirectory { dir in
            let (descriptor, still) = try writtenAnswer(in: dir)
            defer { close(descriptor) }
            #expect(cplatform_seal(descriptor) == 0)
            let reply = try #require(HelperReply.read(from: descriptor, size: size(descriptor)))
            let mapped = try reply.still(mappedFrom: descriptor, size: size(descriptor), path: "blocks.png")
            #expect(mapped.picture.pixelFormat == still.picture.pixelFormat && mapped.picture.width == 24 && mapped.picture.height == 10)
            #expect(mapped.orientation == still.orientation && mapped.colour == still.colour && mapped.format == "PNG")
            let a = still.picture.planes(count: 1), b = mapped.picture.planes(count: 1)
            for row in 0..<10 {
                let left = UnsafeBufferPointer(start: a.data[0]! + row * Int(a.strides[0]), count: 24 * 3)
                let right = UnsafeBufferPointer(start: b.data[0]! + row * Int(b.strides[0]), count: 24 * 3)
                #expect(Array(left) == Array(right), "row \(row)")
            }
        }
    }

    /// Ways a taken-over helper could lie, each of which must be refused.
    static let lies: [(String, @Sendable (inout HelperReply.Picture) -> Void)] = [
        ("wider than the limit", { $0.width = 70_000 }),
        ("no rows", { $0.height = 0 }),
        ("more pixels than the limit", { $0.width = 20_000; $0.height = 20_000 }),
        ("a palette", { $0.pixelFormat = "pal8" }),
        ("an unknown pixel format", { $0.pixelFormat = "rgb\u{1B}[2J" }),
        ("a colour range out of range", { $0.range = 9 }),
        ("a matrix out of range", { $0.matrix = -1 }),
        ("orientation 0", { $0.orientation = 0 }),
        ("a format name it cannot have", { $0.format = "PNG\n" }),
        ("planes that do not start on a page", { $0.pixels += 64 }),
        ("planes inside the header", { $0.pixels = 4096 }),
        ("planes past the end", { $0.pixels += 4096 }),
        ("a picture taller than the answer holds", { $0.height = 40 }),
        ("a profile past the end", { $0.colour.profile = HelperReply.Span(offset: HelperReply.profileOffset, count: 1 << 30) }),
        ("a profile elsewhere", { $0.colour.profile = HelperReply.Span(offset: 16, count: 64) }),
        ("chromaticities out of range", { $0.colour.primaries = [0.64, 0.33, 0.3, 0.6, 0.15, 0.06, 0.3127, 7] }),
        ("seven chromaticities", { $0.colour.primaries = [0.64, 0.33, 0.3, 0.6, 0.15, 0.06, 0.3127] }),
        ("a gamma of nothing", { $0.colour.primaries = Chromaticities.bt709.values; $0.colour.gamma = 0 }),
    ]

    @Test("an answer whose numbers are out of range is refused in one line before any is used", arguments: lies.indices)
    func lie(_ index: Int) throws {
        let (name, change) = Self.lies[index]
        try withTemporaryDirectory { dir in
            let (descriptor, _) = try writtenAnswer(in: dir)
            defer { close(descriptor) }
            var reply = try #require(HelperReply.read(from: descriptor, size: size(descriptor)))
            var picture = try #require(reply.picture)
            change(&picture)
            reply.picture = picture
            #expect(HelperReply.writeHeader(reply, to: descriptor))
            #expect(cplatform_seal(descriptor) == 0)
            let read = try #require(HelperReply.read(from: descriptor, size: size(descriptor)))
            do throws(MediaError) {
                _ = try read.still(mappedFrom: descriptor, size: size(descriptor), path: "x.svg")
                Issue.record("\(name): accepted")
            } catch {
                #expect(error.kind == .inputInvalid && error.description.hasPrefix("x.svg: could not be decoded: its decode helper answered with"),
                        "\(name): \(error)")
                #expect(!error.description.contains("\n") && !error.description.contains("\u{1B}"), "\(name): \(error)")
            }
        }
    }

    @Test("a malformed header is no answer: wrong magic, a length past the end or beyond 64 KiB")
    func malformed() throws {
        try withTemporaryDirectory { dir in
            let (descriptor, _) = try writtenAnswer(in: dir)
            defer { close(descriptor) }
            #expect(HelperReply.read(from: descriptor, size: 15) == nil)
            var bytes: [UInt8] = Array("SVDECODE".utf8) + [0xFF, 0xFF, 0, 0, 0, 0, 0, 0]
            #expect(pwrite(descriptor, &bytes, bytes.count, 0) == bytes.count)
            #expect(HelperReply.read(from: descriptor, size: size(descriptor)) == nil)
            bytes = Array("NOTMINE!".utf8) + [16, 0, 0, 0, 0, 0, 0, 0]
            #expect(pwrite(descriptor, &bytes, bytes.count, 0) == bytes.count)
            #expect(HelperReply.read(from: descriptor, size: size(descriptor)) == nil)
        }
    }
}
