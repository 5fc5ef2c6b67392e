// Temporaries of killed runs: removed by a later run on the same output when their process is
// gone, and only then; never another output's, never a live process's, never through a link.

import Foundation
import Glibc
import ScratchFixtures
import Testing
@testable import SlicePipeline

@Suite struct StaleTemporariesTests {
    /// The pid of a process that has exited and been reaped.
    private func goneProcess() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    /// A live process that stays until `end` is called (it reads stdin until EOF).
    private func liveProcess() throws -> (pid: Int32, end: () -> Void) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/cat")
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return (process.processIdentifier, {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        })
    }

    private func write(_ path: String, _ text: String = "partial") {
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    }

    @Test func aRunRemovesTheTemporariesOfItsOutputWhoseProcessIsGone() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let gone = try goneProcess()
        let live = try liveProcess()
        defer { live.end() }
        let folder = scratch.path
        write("\(folder)/.clip.mp4.slicevid-\(gone)-17.partial")
        write("\(folder)/.clip.mp4.slicevid-\(gone)-18.replaced")
        // A live process's temporary, another output's, and look-alikes that are not ours.
        write("\(folder)/.clip.mp4.slicevid-\(live.pid)-19.partial")
        write("\(folder)/.other.mp4.slicevid-\(gone)-20.partial")
        write("\(folder)/.clip.mp4.slicevid-\(gone)-21.partial.bak")
        write("\(folder)/.clip.mp4.slicevid-\(gone).partial")
        write("\(folder)/victim.txt", "precious")
        try FileManager.default.createSymbolicLink(atPath: "\(folder)/.clip.mp4.slicevid-\(gone)-22.partial",
                                                   withDestinationPath: "\(folder)/victim.txt")

        let target = try OutputTarget(path: "\(folder)/clip.mp4", force: false)
        let temporary = URL(fileURLWithPath: target.temporaryPath).lastPathComponent
        #expect(Set(scratch.files()) == [
            temporary,
            ".clip.mp4.slicevid-\(live.pid)-19.partial",
            ".other.mp4.slicevid-\(gone)-20.partial",
            ".clip.mp4.slicevid-\(gone)-21.partial.bak",
            ".clip.mp4.slicevid-\(gone).partial",
            ".clip.mp4.slicevid-\(gone)-22.partial",
            "victim.txt",
        ])
        #expect(FileManager.default.contents(atPath: "\(folder)/victim.txt") == Data("precious".utf8))
    }

    @Test func aSequenceRemovesFrameFoldersOfGoneProcessesHoldingOnlyItsFrames() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let gone = try goneProcess()
        let live = try liveProcess()
        defer { live.end() }
        let folder = scratch.path
        func frames(_ name: String, _ files: [String]) throws {
            try FileManager.default.createDirectory(atPath: "\(folder)/\(name)", withIntermediateDirectories: true)
            for file in files { write("\(folder)/\(name)/\(file)") }
        }
        try frames(".slicevid-\(gone)-1", ["f0000.png", "f0001.png", "sidecar.json"])
        try frames(".slicevid-\(gone)-2.removing", ["f0000.png"])
        try frames(".slicevid-\(gone)-3", [])
        try frames(".slicevid-\(gone)-4/replaced", ["f0003.png"])
        // Not this output's frames, a live process's, and a link to a folder: all stay.
        try frames(".slicevid-\(gone)-5", ["g0000.png"])
        try frames(".slicevid-\(live.pid)-6", ["f0000.png"])
        try frames("elsewhere", ["f0000.png"])
        try FileManager.default.createSymbolicLink(atPath: "\(folder)/.slicevid-\(gone)-7", withDestinationPath: "\(folder)/elsewhere")

        #expect(StaleTemporaries.find(output: "\(folder)/f%04d.png", frames: FramePattern("\(folder)/f%04d.png")).count == 4)
        let target = try OutputTarget(path: "\(folder)/f%04d.png", force: false)
        let temporary = try #require(target.temporaryFolder.map { URL(fileURLWithPath: $0).lastPathComponent })
        #expect(Set(scratch.files()) == [temporary, ".slicevid-\(gone)-5", ".slicevid-\(live.pid)-6", "elsewhere", ".slicevid-\(gone)-7"])
        #expect(scratch.files(in: "elsewhere") == ["f0000.png"])
    }
}
