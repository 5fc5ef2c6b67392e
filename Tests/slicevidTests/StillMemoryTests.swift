// Memory a still costs is bounded by the frame, not by how far --fit cover enlarges it. Peak
// resident memory of the slicevid process (wait4's ru_maxrss) with thin stills of many aspects
// is compared with a run on the built-in demo cards at the same size: before cover cropped
// first, a 1x200 PNG at 1920x1080 took 2.1 GB (or segfaulted in libswscale).

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

    /// A C program that runs a command and prints its exit status and ru_maxrss (KiB). The
    /// measurement needs a small parent: Linux starts a child's maxrss at its parent's resident
    /// memory when it execs (the test process, hundreds of MB while the suite runs), so the
    /// child is forked from this helper, not from the test.
    static let helperSource = """
        #include <fcntl.h>
        #include <stdio.h>
        #include <sys/resource.h>
        #include <sys/wait.h>
        #include <unistd.h>
        int main(int argc, char **argv) {
            if (argc < 2) return 2;
            pid_t pid = fork();
            if (pid == 0) {
                int null = open("/dev/null", O_WRONLY);
                dup2(null, 1); dup2(null, 2);
                execv(argv[1], argv + 1);
                _exit(127);
            }
            int status; struct rusage usage;
            if (pid < 0 || wait4(pid, &status, 0, &usage) < 0) return 1;
            printf("%d %ld\\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), usage.ru_maxrss);
            return 0;
        }
        """

    /// Builds the helper in `folder` with the C compiler the Swift toolchain brings (clang), or
    /// the system's.
    static func buildHelper(in folder: String) throws -> String {
        let helper = folder + "/peak-memory"
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":").map(String.init)
        guard let compiler = ["clang", "cc", "gcc"].lazy.flatMap({ name in paths.map { $0 + "/" + name } })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw HarnessError("no C compiler on PATH to build the memory probe")
        }
        let source = folder + "/peak-memory.c"
        try writeFile(source, Data(helperSource.utf8))
        let compile = Process()
        compile.executableURL = URL(fileURLWithPath: compiler)
        compile.arguments = ["-O1", "-o", helper, source]
        try compile.run()
        compile.waitUntilExit()
        guard compile.terminationStatus == 0 else { throw HarnessError("\(compiler) could not build the memory probe") }
        return helper
    }

    /// Runs the binary with `arguments` through the helper; returns its exit status and peak
    /// resident memory in bytes.
    static func peakMemory(_ arguments: [String], helper: String) throws -> (status: Int32, bytes: Int) {
        let pipe = Pipe()
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: helper)
        probe.arguments = [try CLI.binary()] + arguments
        probe.standardOutput = pipe
        try probe.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        probe.waitUntilExit()
        let fields = output.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard probe.terminationStatus == 0, fields.count == 2 else { throw HarnessError("the memory probe said: \(output)") }
        return (Int32(fields[0]), fields[1] * 1024)
    }

    @Test("thin stills of any aspect cover 1920x1080 in less than 3 frame pools more than the demo cards")
    func thinStillsAreBounded() throws {
        try withScratchFolder { folder in
            let helper = try Self.buildHelper(in: folder)
            let baseline = try Self.peakMemory(["make"] + Self.flags, helper: helper)
            #expect(baseline.status == 0)
            for shape in [(1, 200), (1, 1000), (1, 16000), (2, 30000), (1, 65535), (200, 1), (16000, 1), (65535, 1)] {
                let path = "\(folder)/\(shape.0)x\(shape.1).png"
                try StillWriter.write(RGBAImage(width: shape.0, height: shape.1, color: RGBAColor(red: 90, green: 140, blue: 200)),
                                      to: path, format: .png)
                let run = try Self.peakMemory(["make", "--from", path, "--to", path] + Self.flags, helper: helper)
                #expect(run.status == 0, "\(shape): exit status \(run.status)")
                let extra = run.bytes - baseline.bytes
                #expect(extra < 3 * Self.poolBytes,
                        "\(shape): \(run.bytes >> 20) MB peak, \(extra >> 20) MB over the demo's; 3 frame pools are \(3 * Self.poolBytes >> 20) MB")
            }
        }
    }
}
