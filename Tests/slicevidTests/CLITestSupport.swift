// Runs the built `slicevid` binary as a user would: a subprocess in a fresh folder, with its
// exit status, stdout and stderr captured. Also the fixtures and pixel measures the CLI tests
// compare decoded outputs with.

import Foundation
import SliceKit
import SliceMedia
import StillFixtures
import Testing

/// Flags that keep a render tiny: 6 frames of 64x36 (0.2 s hold + 0.3 s move at 10 fps).
/// The frame is narrower than the default 75 strips, so `--slices` is lowered too.
let tinyClip = ["--size", "64x36", "--fps", "10", "--hold", "0.2", "--duration", "0.3", "--slices", "16",
                "--encoder-preset", "ultrafast"]

/// `tinyClip` with some flags' values replaced (or added); a nil value drops the flag.
func tinyClip(_ overrides: KeyValuePairs<String, String?>) -> [String] {
    var flags = stride(from: 0, to: tinyClip.count, by: 2).map { (tinyClip[$0], Optional(tinyClip[$0 + 1])) }
    for (flag, value) in overrides {
        if let index = flags.firstIndex(where: { $0.0 == flag }) {
            flags[index].1 = value
        } else {
            flags.append((flag, value))
        }
    }
    return flags.flatMap { flag, value in value.map { [flag, $0] } ?? [] }
}

/// Frames `tinyClip` renders: round((hold + duration) × fps) + 1.
let tinyClipFrames = Int(((0.2 + 0.3) * 10).rounded()) + 1

/// Flags for a render long enough (601 frames of 720p) to still be running when signalled.
let longClip = ["--size", "1280x720", "--hold", "0", "--duration", "20", "--fps", "30"]

/// What one run of the binary did.
struct CLIResult: CustomStringConvertible {
    /// The exit status, or the signal number when `signalled`.
    var status: Int32
    /// The process died from a signal it did not handle.
    var signalled: Bool
    /// stdout's bytes (binary when a video is streamed with `-o -`).
    var stdoutData: Data
    var stderr: String

    var stdout: String { String(decoding: stdoutData, as: UTF8.self) }

    var description: String { "status \(status)\(signalled ? " (signal)" : ""), stderr: \(stderr.debugDescription)" }

    /// Whether stderr is exactly one newline-terminated line, as every error report must be.
    var stderrIsOneLine: Bool { stderr.hasSuffix("\n") && !stderr.dropLast().contains("\n") && !stderr.contains("\r") }
}

/// A failure of the test harness itself (not of slicevid).
struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The binary under test and ways to run it.
enum CLI {
    /// `slicevid` beside the running test executable: SwiftPM puts the `.xctest` and the
    /// products in the same `.build/<triple>/debug/` folder.
    static func binary() throws -> String {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let folder = URL(fileURLWithPath: executable).deletingLastPathComponent().path
        let candidate = folder + "/slicevid"
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: candidate, isDirectory: &isFolder), !isFolder.boolValue,
              FileManager.default.isExecutableFile(atPath: candidate) else {
            throw HarnessError("""
                the slicevid binary is not at \(candidate) (next to the test executable \(executable)); \
                build it with the tests: swift build --build-tests, then swift test --skip-build
                """)
        }
        return candidate
    }

    /// Runs `slicevid arguments` in `folder` and waits for it (at most `timeout` seconds).
    /// - Parameter whileRunning: called once the process has started, with the process and
    ///   a function returning the stderr written so far; used to signal a render mid-way.
    /// - Parameter standardOutput: where stdout goes instead of being captured (a `Pipe`).
    /// - Parameter environment: variables to set (a nil value removes one) in a copy of this
    ///   process's environment.
    static func run(_ arguments: [String], in folder: String, executable: String? = nil, timeout: Double = 120,
                    environment: [String: String?] = [:], standardOutput: Any? = nil,
                    whileRunning: ((Process, () -> String) throws -> Void)? = nil) throws -> CLIResult {
        let logs = FileManager.default.temporaryDirectory.appendingPathComponent("slicevidTests-logs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: logs) }
        let outPath = logs + "/stdout", errPath = logs + "/stderr"
        try writeFile(outPath, Data())
        try writeFile(errPath, Data())
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        defer { try? out.close(); try? err.close() }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executable ?? binary())
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        if !environment.isEmpty {
            var variables = ProcessInfo.processInfo.environment
            for (name, value) in environment { variables[name] = value }
            process.environment = variables
        }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = standardOutput ?? out
        process.standardError = err
        try process.run()
        let readErr = { (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" }
        do {
            try whileRunning?(process, readErr)
        } catch {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw error
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(5_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw HarnessError("slicevid \(arguments.joined(separator: " ")) did not finish within \(timeout) s")
        }
        process.waitUntilExit()
        return CLIResult(status: process.terminationStatus,
                         signalled: process.terminationReason == .uncaughtSignal,
                         stdoutData: FileManager.default.contents(atPath: outPath) ?? Data(),
                         stderr: readErr())
    }

    /// `slicevid make` with `arguments`, in `folder`.
    static func make(_ arguments: [String], in folder: String) throws -> CLIResult {
        try run(["make"] + arguments, in: folder)
    }
}

/// Runs `body` in a fresh, empty folder that is removed afterwards, however `body` ends.
func withScratchFolder<R>(_ body: (String) throws -> R) throws -> R {
    FFmpegLog.configure(verbose: false)
    // Stills these tests decode in process (MediaReader on an SVG, say) use the built binary.
    if DecodeHelper.executable == nil { DecodeHelper.executable = BuiltSlicevid.path }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("slicevidTests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}

/// Every file and folder under a folder (hidden ones included) with each file's bytes, so a
/// failed run can be shown to have left everything exactly as it was.
struct FolderSnapshot: Equatable, CustomStringConvertible {
    var entries: [String: Data?]

    init(_ folder: String) {
        entries = [:]
        for sub in (try? FileManager.default.subpathsOfDirectory(atPath: folder)) ?? [] {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder + "/" + sub, isDirectory: &isFolder)
            entries[sub] = isFolder.boolValue ? nil : (FileManager.default.contents(atPath: folder + "/" + sub) ?? Data())
        }
    }

    var description: String { entries.keys.sorted().joined(separator: ", ") }
}

/// Entries whose names show a temporary output was left behind.
func leftovers(in folder: String) -> [String] {
    ((try? FileManager.default.subpathsOfDirectory(atPath: folder)) ?? []).filter { path in
        let name = URL(fileURLWithPath: path).lastPathComponent
        return name.hasSuffix(".partial") || name.hasPrefix(".slicevid-") || path.contains("/.slicevid-")
    }
}

/// Pixel measures on decoded frames.
enum Pixels {
    /// Mean absolute difference of plane `plane` of two same-sized images.
    static func meanAbsoluteError(_ a: PlanarImage, _ b: PlanarImage, plane p: Int = 0) -> Double {
        precondition(a.width == b.width && a.height == b.height)
        let pa = a.planes[p], pb = b.planes[p]
        var total = 0
        for y in 0..<pa.height {
            for x in 0..<pa.width { total += abs(Int(pa.row(y)[x]) - Int(pb.row(y)[x])) }
        }
        return Double(total) / Double(pa.width * pa.height)
    }

    /// The largest difference of any sample of any plane.
    static func maximumError(_ a: PlanarImage, _ b: PlanarImage) -> Int {
        precondition(a.width == b.width && a.height == b.height && a.layout == b.layout)
        var worst = 0
        for (pa, pb) in zip(a.planes, b.planes) {
            for y in 0..<pa.height {
                for x in 0..<pa.width { worst = max(worst, abs(Int(pa.row(y)[x]) - Int(pb.row(y)[x]))) }
            }
        }
        return worst
    }

    /// The colour at (x, y) of a `gbrp` image.
    static func color(_ image: PlanarImage, _ x: Int, _ y: Int) -> RGBAColor {
        precondition(image.layout == .gbrp)
        return RGBAColor(red: image.planes[2].row(y)[x], green: image.planes[0].row(y)[x], blue: image.planes[1].row(y)[x])
    }

    /// Whether two colours differ by at most `tolerance` in each of R, G, B.
    static func isClose(_ a: RGBAColor, _ b: RGBAColor, within tolerance: Int) -> Bool {
        abs(Int(a.red) - Int(b.red)) <= tolerance && abs(Int(a.green) - Int(b.green)) <= tolerance
            && abs(Int(a.blue) - Int(b.blue)) <= tolerance
    }
}

/// Input stills for `--from` / `--to`.
enum Still {
    static let white = RGBAColor(red: 255, green: 255, blue: 255)

    /// A solid `color` picture with a white square of `side` pixels in the middle, so a test
    /// can see both how the picture was scaled (the square stays square) and where it sits.
    static func squareOn(_ color: RGBAColor, width: Int, height: Int, side: Int) -> RGBAImage {
        var image = RGBAImage(width: width, height: height, color: color)
        let x0 = (width - side) / 2, y0 = (height - side) / 2
        for y in y0..<(y0 + side) {
            for x in x0..<(x0 + side) {
                let i = 4 * (y * width + x)
                image.pixels.replaceSubrange(i..<(i + 4), with: [255, 255, 255, 255])
            }
        }
        return image
    }

    /// Writes a picture and returns its path.
    @discardableResult
    static func write(_ image: RGBAImage, _ name: String, in folder: String, format: StillFormat = .png) throws -> String {
        let path = folder + "/" + name
        try StillWriter.write(image, to: path, format: format)
        return path
    }
}

/// Writes `contents` to `path`, replacing any file there.
func writeFile(_ path: String, _ contents: Data) throws {
    try contents.write(to: URL(fileURLWithPath: path))
}

extension String {
    /// The text with every run of blanks and line breaks as one space: help wrapped to the
    /// terminal, read as the sentences it holds.
    var unwrapped: String { split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ") }
}
