// Stills whose decoders can abort are decoded in a helper process: an abort, a limit or a stop
// is the still's refusal and never this process's end; the helper is killed and reaped when the
// run stops; without a helper those formats are refused, never decoded here.

import CPlatform
import Foundation
import Glibc
import SliceKit
@testable import SliceMedia
import StillFixtures
import Synchronization
import Testing

@Suite("decode helper", .timeLimit(.minutes(5)))
struct DecodeHelperTests {
    /// 110 bytes that make librsvg 2.54 panic (`assertion failed: h >= 0.0`), which aborts.
    static let abortingSVG = "<svg xmlns='http://www.w3.org/2000/svg' width='100' height='100'><text y='100' font-size='3e6'>A</text></svg>"

    private func load(_ path: String) throws(MediaError) -> RGBAImage {
        try StillDecoder.load(path: path, width: 64, height: 36, fit: .cover, background: .black)
    }

    @Test("an SVG that makes librsvg abort is refused with one line, and this process lives on")
    func abortingDecoder() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/bomb.svg"
            try Data(Self.abortingSVG.utf8).write(to: URL(fileURLWithPath: path))
            do throws(MediaError) {
                _ = try load(path)
                Issue.record("the SVG was drawn")
            } catch {
                #expect(error.kind == .inputInvalid && !error.description.contains("\n"), "\(error)")
                #expect(error.description.hasPrefix(path + ": could not be decoded: the SVG decoder (librsvg) aborted"), "\(error)")
                #expect(error.message.contains("h >= 0.0"), "the panic's reason is quoted: \(error)")
            }
            #expect(throws: MediaError.self) { try MediaReader.info(path: path) }
        }
    }

    @Test("with no decode helper set up, SVG and HEIC are refused as unavailable (69) in one line; a PNG decodes here")
    func noHelper() throws {
        try withTemporaryDirectory { dir in
            try Data("<svg xmlns='http://www.w3.org/2000/svg' width='8' height='8'/>".utf8).write(to: URL(fileURLWithPath: dir + "/a.svg"))
            try HEIFWriter.heic(RGBAImage(width: 16, height: 16, color: .black), to: dir + "/a.heic")
            try StillWriter.write(RGBAImage(width: 16, height: 16, color: .black), to: dir + "/a.png", format: .png)
            try DecodeHelper.$scoped.withValue(DecodeHelper.Configuration(executable: nil)) { () throws in
                for name in ["a.svg", "a.heic"] {
                    do throws(MediaError) {
                        _ = try load(dir + "/" + name)
                        Issue.record("\(name) was decoded in this process")
                    } catch {
                        #expect(error.kind == .unavailable && !error.description.contains("\n"), "\(error)")
                        #expect(error.description.hasPrefix(dir + "/" + name + ": is ") && error.message.contains("decode helper"), "\(error)")
                    }
                }
                #expect(try load(dir + "/a.png").width == 64)
            }
        }
    }

    @Test("a helper that runs out of its address space is the still's refusal (65), in one line")
    func addressSpaceLimit() throws {
        try withTemporaryDirectory { dir in
            // Drawn at its own size: a 4000x4000 RGBA picture, 64 MB.
            let path = dir + "/big.svg"
            let svg = "<svg xmlns='http://www.w3.org/2000/svg' width='4000' height='4000'><circle cx='2000' cy='2000' r='1900' fill='#36c'/></svg>"
            try Data(svg.utf8).write(to: URL(fileURLWithPath: path))
            #expect(try StillDecoder.decode(path: path, isCancelled: { false }).picture.width == 4000)
            // 32 MiB: less than the helper has mapped when it starts, so any new mapping fails.
            let tiny = DecodeHelper.Configuration(executable: DecodeHelper.executable,
                                                  limits: HelperLimits(addressSpace: 32 << 20, cpuSeconds: 60))
            try DecodeHelper.$scoped.withValue(tiny) {
                do throws(MediaError) {
                    _ = try StillDecoder.decode(path: path, isCancelled: { false })
                    Issue.record("the still decoded within 32 MiB")
                } catch {
                    #expect(error.kind == .inputInvalid && !error.description.contains("\n"), "\(error.kind) \(error)")
                    #expect(error.description.hasPrefix(path + ": "), "\(error)")
                }
            }
        }
    }

    @Test("a helper past its CPU-time limit (SIGXCPU) is the still's refusal (65), in one line naming the limit")
    func cpuLimit() throws {
        try withTemporaryDirectory { dir in
            // 64 tiles of 512x512 noise: well over a second of decoding.
            let path = dir + "/grid.heic"
            try HEIFGrid.write(tile: Fixture.noise(width: 512, height: 512), columns: 8, rows: 8, to: path)
            let brief = DecodeHelper.Configuration(executable: DecodeHelper.executable,
                                                   limits: HelperLimits(addressSpace: HelperLimits.standard.addressSpace, cpuSeconds: 1))
            DecodeHelper.$scoped.withValue(brief) {
                do throws(MediaError) {
                    _ = try load(path)
                    Issue.record("the grid decoded within a second of CPU")
                } catch {
                    #expect(error.kind == .inputInvalid && !error.description.contains("\n"), "\(error.kind) \(error)")
                    #expect(error.description == path + ": could not be decoded: the HEIF decoder (libheif) used more than its 1 s of CPU time",
                            "\(error)")
                }
            }
        }
    }

    @Test("a helper dies with the process that started it (PR_SET_PDEATHSIG), even one that stalls")
    func diesWithItsParent() throws {
        let binary = try #require(DecodeHelper.executable ?? BuiltSlicevid.path)
        // A shell starts a stalling helper (it waits to be killed) and says its pid; then the
        // shell is killed. The helper's descriptors 3 and 4 are there, as a parent gives them.
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "exec 3</dev/null 4>/dev/null; \"$0\" \(DecodeHelper.modeArgument) task=still parent=$$ memory=\(4 << 30) cpu=60 stall=1 path=x & echo $!; wait",
                           binary]
        let output = Pipe()
        shell.standardOutput = output
        try shell.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        let helper = try #require(Int32(line.trimmingCharacters(in: .whitespacesAndNewlines)), "\(line)")
        // Confined before it stalls: /proc shows NoNewPrivs, set just after its death signal.
        let confined = Date().addingTimeInterval(120)
        while processState(helper) != nil, Date() < confined,
              !((try? String(contentsOfFile: "/proc/\(helper)/status", encoding: .utf8)) ?? "").contains("NoNewPrivs:\t1") {
            usleep(1_000)
        }
        kill(shell.processIdentifier, SIGKILL)
        // Gone, or a zombie waiting for whoever adopted it; a hang guard kills it otherwise.
        let deadline = Date().addingTimeInterval(120)
        while let state = processState(helper), state != "Z", Date() < deadline { usleep(1_000) }
        let state = processState(helper)
        if let state, state != "Z" { kill(helper, SIGKILL) }
        #expect(state == nil || state == "Z", "the helper outlived its parent: state \(state ?? "gone")")
        // Only now: Foundation waits for the end of a pipe the helper inherited from the shell.
        shell.waitUntilExit()
    }

    @Test("a stopped decode kills its helper and reaps it: the still says stopped, no zombie is left")
    func stopKillsAndReaps() throws {
        try withTemporaryDirectory { dir in
            let path = dir + "/waits.svg"
            try Data("<svg xmlns='http://www.w3.org/2000/svg' width='8' height='8'/>".utf8).write(to: URL(fileURLWithPath: path))
            let stop = Atomic<Bool>(false)
            let helper = Atomic<Int32>(0)
            let returned = DispatchSemaphore(value: 0)
            let killedByTheTest = Atomic<Bool>(false)
            // The stop comes once the helper exists (it stalls until killed, so it is alive).
            let watcher = Thread {
                while helper.load(ordering: .relaxed) == 0 {
                    if let pid = childProcess(naming: path) { helper.store(pid, ordering: .relaxed) } else { usleep(1_000) }
                }
                stop.store(true, ordering: .relaxed)
                // Hang guard: a parent that does not kill its helper would wait for ever; the
                // test kills it then, and fails, instead of hanging.
                if returned.wait(timeout: .now() + 120) == .timedOut {
                    killedByTheTest.store(true, ordering: .relaxed)
                    kill(helper.load(ordering: .relaxed), SIGKILL)
                }
            }
            watcher.start()
            let stalling = DecodeHelper.Configuration(executable: DecodeHelper.executable, stalls: true)
            DecodeHelper.$scoped.withValue(stalling) {
                do throws(MediaError) {
                    _ = try StillDecoder.load(path: path, width: 8, height: 8, fit: .cover, background: .black,
                                              isCancelled: { stop.load(ordering: .relaxed) })
                    Issue.record("a stalled helper decoded the still")
                } catch {
                    #expect(error.kind == .inputInvalid && error.message == "not decoded: the run was stopped", "\(error)")
                }
            }
            returned.signal()
            let killed = killedByTheTest.load(ordering: .relaxed)
            #expect(!killed, "the stop did not kill the helper: the test had to")
            let pid = helper.load(ordering: .relaxed)
            #expect(pid > 0)
            // Reaped: not even a zombie is left under its number.
            #expect(!FileManager.default.fileExists(atPath: "/proc/\(pid)"), "helper \(pid) is still there: \(processState(pid) ?? "?")")
        }
    }

    @Test("an SVGZ is drawn; one whose SVG inflates past 32 MiB is refused in one line, without inflating the rest")
    func svgz() throws {
        try withTemporaryDirectory { dir in
            let svg = "<svg xmlns='http://www.w3.org/2000/svg' width='16' height='9'><rect width='16' height='9' fill='#ff0000'/></svg>"
            try Data(Gzip.compress(Array(svg.utf8))).write(to: URL(fileURLWithPath: dir + "/red.svgz"))
            let red = try load(dir + "/red.svgz")
            #expect(red[32, 18] == RGBAColor(red: 255, green: 0, blue: 0), "\(red[32, 18])")
            let head = Array("<svg xmlns='http://www.w3.org/2000/svg' width='16' height='9'>".utf8)
            try Data(Gzip.bomb(head: head, mebibytesOfSpaces: 2048, tail: Array("</svg>".utf8)))
                .write(to: URL(fileURLWithPath: dir + "/bomb.svgz"))
            do throws(MediaError) {
                _ = try load(dir + "/bomb.svgz")
                Issue.record("2 GiB of SVG text were drawn")
            } catch {
                #expect(error.kind == .inputInvalid && !error.description.contains("\n"), "\(error)")
                #expect(error.message.contains("inflates to more than 32 MiB"), "\(error)")
            }
        }
    }
}

/// A child of this process whose command line names `path` (a decode helper for that still).
func childProcess(naming path: String) -> Int32? {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    let children = tasks.flatMap { task in
        ((try? String(contentsOfFile: "/proc/self/task/\(task)/children", encoding: .utf8)) ?? "").split(separator: " ").compactMap { Int32($0) }
    }
    return children.first { pid in
        let line = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
        return line.split(separator: 0).contains { Array($0) == Array(("path=" + path).utf8) }
    }
}

/// The state letter /proc gives a process (Z for a zombie), if it exists.
func processState(_ pid: Int32) -> String? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")") else { return nil }
    return String(stat[stat.index(close, offsetBy: 2)...].prefix(1))
}
