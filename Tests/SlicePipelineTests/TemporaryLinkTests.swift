// Temporaries are written through the descriptor that created them: a link planted at the
// temporary's name during the render is never written through, and the commit refuses to move
// whatever now holds that name. Files written this way decode (MP4's faststart included).

import Foundation
import Glibc
import ScratchFixtures
import SliceKit
import SliceMedia
import Testing
@testable import SlicePipeline

@Suite struct TemporaryLinkTests {
    private static let frames = 6

    /// Renders a short grey MP4 into `target` through the production sink.
    private func render(into target: OutputTarget) throws {
        let clip = Clip(width: 64, height: 36, frameRate: FrameRate(30), frameCount: Self.frames)
        let plan = try EncodingPlan.resolve(path: target.path, format: .mp4, own: EncoderSettings(crf: 30, preset: "ultrafast"), clip: clip)
        let sink = try EncoderSink(target: target, plan: plan, layout: .yuv420p)
        for index in 0..<Self.frames {
            try sink.consume(RGBAImage(width: 64, height: 36, color: RGBAColor(red: 90, green: 90, blue: 90)).planar(.yuv420p), index: index)
        }
        try sink.finish()
    }

    @Test func aLinkPlantedAtTheTemporaryIsNeverWrittenThrough() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let victim = scratch.path + "/victim.txt"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        let target = try OutputTarget(path: scratch.path + "/o.mp4", force: false)
        // Someone swaps the hidden temporary for a link after it was made.
        #expect(unlink(target.temporaryPath) == 0)
        #expect(symlink(victim, target.temporaryPath) == 0)
        try render(into: target)
        #expect(FileManager.default.contents(atPath: victim) == Data("precious".utf8))
        do {
            try target.commit()
            Issue.record("the commit moved a link planted at the temporary's name into place")
        } catch {
            #expect(error.category == .outputFailed)
            #expect(error.message.contains("was replaced during the render"))
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/o.mp4"))
        #expect(FileManager.default.contents(atPath: victim) == Data("precious".utf8))
    }

    @Test func aFolderSwappedForALinkMidRunCannotRedirectTheCommit() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let folder = scratch.path + "/out", elsewhere = scratch.path + "/elsewhere"
        #expect(mkdir(folder, 0o755) == 0 && mkdir(elsewhere, 0o755) == 0)
        let target = try OutputTarget(path: folder + "/o.mp4", force: false)
        try render(into: target)
        // The output's folder moves away and a link to another folder takes its name.
        #expect(rename(folder, scratch.path + "/moved") == 0)
        #expect(symlink(elsewhere, folder) == 0)
        try target.commit()
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
        #expect(try MediaReader.info(path: scratch.path + "/moved/o.mp4").frameCount == Self.frames)
    }

    @Test func anMP4WrittenThroughItsDescriptorDecodesWithItsIndexFirst() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let output = scratch.path + "/o.mp4"
        let target = try OutputTarget(path: output, force: false)
        try render(into: target)
        try target.commit()
        let info = try MediaReader.info(path: output)
        #expect(info.codecName == "h264" && info.frameCount == Self.frames)
        // faststart read the file back through the descriptor and moved the index first.
        let bytes = try #require(FileManager.default.contents(atPath: output))
        let moov = try #require(bytes.firstRange(of: Data("moov".utf8))), mdat = try #require(bytes.firstRange(of: Data("mdat".utf8)))
        #expect(moov.lowerBound < mdat.lowerBound)
    }

    @Test func aStillWrittenThroughItsDescriptorDecodes() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let output = scratch.path + "/poster.jpg"
        let target = try OutputTarget(path: output, force: false)
        #expect(unlink(target.temporaryPath) == 0)
        #expect(symlink(scratch.path + "/elsewhere.jpg", target.temporaryPath) == 0)
        let image = RGBAImage(width: 32, height: 16, color: RGBAColor(red: 200, green: 40, blue: 40))
        try StillWriter.write(image, to: target.temporaryPath, file: target.file, format: .jpeg)
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/elsewhere.jpg"))
    }
}
