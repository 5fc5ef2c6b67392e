// Memory a still costs is bounded by the frame, not by how far --fit cover enlarges it. Peak
// resident memory of the child process (wait4's ru_maxrss) with thin stills of many aspects is
// compared with a run on the built-in demo cards at the same size: before cover cropped first,
// a 1x200 PNG at 1920x1080 took 2.2 GB (or segfaulted in libswscale).

import Foundation
import SliceKit
import SliceMedia
import Testing

@Suite("slicevid make memory with thin stills")
struct StillMemoryTests {
    static let size = (width: 1920, height: 1080)
    /// `--jobs 2` keeps the render window at 2 × 2 + 2 = 6 frames on any machine.
    static let flags = ["--size", "1920x1080", "--fps", "10", "--hold", "0", "--duration", "0.1", "--jobs", "2", "-o", "null"]
    /// The frame pool: six frames of three full planes (the largest render layout without alpha).
    static let poolBytes = 6 * size.width * size.height * 3

    /// Runs the binary with `arguments`, stdout and stderr discarded; returns its exit status
    /// and peak resident memory in bytes.
    static func peakMemory(_ arguments: [String]) throws -> (status: Int32, bytes: Int) {
        let binary = try CLI.binary()
        let argv = ([binary] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid = pid_t()
        guard posix_spawn(&pid, binary, &actions, nil, argv, environ) == 0 else { throw HarnessError("cannot start \(binary)") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        // ru_maxrss is in KiB on Linux.
        return (status, usage.ru_maxrss * 1024)
    }

    @Test("thin stills of any aspect cover 1920x1080 in less than 3 frame pools more than the demo cards")
    func thinStillsAreBounded() throws {
        try withScratchFolder { folder in
            let baseline = try Self.peakMemory(["make"] + Self.flags)
            #expect(baseline.status == 0)
            for shape in [(1, 200), (1, 1000), (1, 16000), (2, 30000), (1, 65535), (200, 1), (16000, 1), (65535, 1)] {
                let path = "\(folder)/\(shape.0)x\(shape.1).png"
                try StillWriter.write(RGBAImage(width: shape.0, height: shape.1, color: RGBAColor(red: 90, green: 140, blue: 200)),
                                      to: path, format: .png)
                let run = try Self.peakMemory(["make", "--from", path, "--to", path] + Self.flags)
                #expect(run.status == 0, "\(shape): exit status \(run.status)")
                let extra = run.bytes - baseline.bytes
                #expect(extra < 3 * Self.poolBytes,
                        "\(shape): \(run.bytes >> 20) MB peak, \(extra >> 20) MB over the demo's; 3 frame pools are \(3 * Self.poolBytes >> 20) MB")
            }
        }
    }
}
