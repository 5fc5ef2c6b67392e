// Runs the binary with arguments given as bytes: Foundation's Process hands its arguments over
// as UTF-8, so a name that is not UTF-8 can only reach slicevid through posix_spawn. Also the
// file checks that look at names byte for byte.

import Foundation
import Glibc

/// A command-line argument as bytes; most are text.
struct ArgumentBytes: ExpressibleByStringLiteral {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    init(_ text: String) { bytes = Array(text.utf8) }
    init(stringLiteral text: String) { bytes = Array(text.utf8) }

    /// `prefix`, then `byte`, then `suffix`: a name with one byte that is not UTF-8.
    static func name(_ prefix: String, _ byte: UInt8, _ suffix: String) -> ArgumentBytes {
        ArgumentBytes(Array(prefix.utf8) + [byte] + Array(suffix.utf8))
    }

    /// This argument joined to `other` with a slash: a path inside a folder.
    func slash(_ other: ArgumentBytes) -> ArgumentBytes { ArgumentBytes(bytes + [0x2F] + other.bytes) }
}

extension CLI {
    /// Runs `slicevid arguments` in `folder` (through `sh`, which changes into the folder and
    /// then becomes slicevid) and waits for it to end; the suite's time limit guards a hang.
    static func run(bytes arguments: [ArgumentBytes], in folder: String) throws -> CLIResult {
        let logs = FileManager.default.temporaryDirectory.appendingPathComponent("slicevidTests-logs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: logs) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logs + "/stdout", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, logs + "/stderr", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let script = "cd -- \"$1\" || exit 99; shift; exec \"$@\""
        let argv: [[UInt8]] = [Array("sh".utf8), Array("-c".utf8), Array(script.utf8), Array("sh".utf8),
                               Array(folder.utf8), Array(try binary().utf8)] + arguments.map(\.bytes)
        let pointers = argv.map { bytes in bytes.withUnsafeBufferPointer { buffer -> UnsafeMutablePointer<CChar>? in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: buffer.count + 1)
            for (index, byte) in buffer.enumerated() { copy[index] = CChar(bitPattern: byte) }
            copy[buffer.count] = 0
            return copy
        } } + [nil]
        defer { pointers.forEach { $0?.deallocate() } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, pointers, environ)
        guard spawned == 0 else { throw HarnessError("posix_spawn /bin/sh: \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signalled = status & 0x7F != 0
        return CLIResult(status: signalled ? status & 0x7F : (status >> 8) & 0xFF, signalled: signalled,
                         stdoutData: FileManager.default.contents(atPath: logs + "/stdout") ?? Data(),
                         stderr: String(decoding: FileManager.default.contents(atPath: logs + "/stderr") ?? Data(), as: UTF8.self))
    }
}

/// The names in `folder` exactly as the kernel has them.
func entryBytes(in folder: ArgumentBytes) -> [[UInt8]] {
    guard let listing = opendir(cString(folder)) else { return [] }
    defer { closedir(listing) }
    var names: [[UInt8]] = []
    while let entry = readdir(listing) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix(while: { $0 != 0 })) }
        if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
    }
    return names.sorted { $0.lexicographicallyPrecedes($1) }
}

/// Whether something is at `path`, named by its bytes.
func exists(_ path: ArgumentBytes) -> Bool {
    var info = stat()
    return lstat(cString(path), &info) == 0
}

/// The file at `path` (named by its bytes), read whole; nil when it cannot be.
func contents(_ path: ArgumentBytes) -> Data? {
    let descriptor = open(cString(path), O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true).readDataToEndOfFile()
}

/// Writes `data` at `path`, named by its bytes.
func write(_ data: Data, to path: ArgumentBytes) throws {
    let descriptor = open(cString(path), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw HarnessError("cannot create \(path.bytes): \(String(cString: strerror(errno)))") }
    try FileHandle(fileDescriptor: descriptor, closeOnDealloc: true).write(contentsOf: data)
}

/// Makes the folder at `path`, named by its bytes.
func makeFolder(_ path: ArgumentBytes) throws {
    guard mkdir(cString(path), 0o755) == 0 else { throw HarnessError("cannot make \(path.bytes): \(String(cString: strerror(errno)))") }
}

private func cString(_ path: ArgumentBytes) -> [CChar] {
    path.bytes.map { CChar(bitPattern: $0) } + [0]
}
