// `-o -` to a reader that stops reading: a write to the full pipe must not outlast a signal.
// The writer waits for room with poll(2) beside a wake pipe the signal handler fills, so one
// SIGTERM ends the run with 143 even while a frame is half written.

import Foundation
import Glibc
import Testing

@Suite(.serialized, .timeLimit(.minutes(10))) struct StalledStdoutTests {
    @Test func aSignalEndsAWriteToAStalledReader() throws {
        try withScratchFolder { folder in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try CLI.binary())
            // One 320x180 frame (86 KB) is more than a pipe holds: the first frame fills it.
            process.arguments = ["make", "--size", "320x180", "--hold", "0", "--duration", "20", "--fps", "30", "-o", "-"]
            process.currentDirectoryURL = URL(fileURLWithPath: folder)
            let output = Pipe()
            process.standardOutput = output
            _ = FileManager.default.createFile(atPath: folder + "/stderr.log", contents: nil)
            process.standardError = FileHandle(forWritingAtPath: folder + "/stderr.log")
            let exited = DispatchSemaphore(value: 0)
            process.terminationHandler = { _ in exited.signal() }
            try process.run()
            // Read the header and the first frame, up to the second frame's data; then never
            // read again. The second frame (86 KB) cannot fit in the pipe (64 KB) and the
            // writer's buffer, so the writer is blocked in the middle of it.
            let reader = output.fileHandleForReading.fileDescriptor
            var received: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1)
            while !received.contains(0x0A) {
                guard read(reader, &chunk, 1) == 1 else { Issue.record("no stream header"); return }
                received.append(chunk[0])
            }
            var wanted = ("FRAME\n".utf8.count + 320 * 180 * 3 / 2) + "FRAME\n".utf8.count
            chunk = [UInt8](repeating: 0, count: 4096)
            while wanted > 0 {
                let count = read(reader, &chunk, min(wanted, chunk.count))
                guard count > 0 else { Issue.record("the stream ended early"); return }
                wanted -= count
            }
            kill(process.processIdentifier, SIGTERM)
            // The bound only keeps a hang from stalling the suite; the run is expected to end
            // as soon as the signal is handled.
            if exited.wait(timeout: .now() + 60) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                Issue.record("a write to the stalled reader outlasted SIGTERM")
                return
            }
            let stderr = (try? String(contentsOfFile: folder + "/stderr.log", encoding: .utf8)) ?? ""
            #expect(process.terminationReason == .exit && process.terminationStatus == 143, "\(stderr)")
            #expect(stderr.hasSuffix("slicevid: error: interrupted by SIGTERM; no output was written\n"), "\(stderr)")
            // The start line, then that one error: the cancelled write itself is not reported.
            #expect(stderr.split(separator: "\n").count == 2 && stderr.components(separatedBy: "error").count == 2, "\(stderr)")
        }
    }
}
