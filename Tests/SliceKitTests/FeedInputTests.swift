// A feed's bytes read as one version of the file: a rewrite in place, a truncation or a swap
// while it is read (made by a hook after the first chunk, as an export beside a nightly run
// would) is said at the end; a folder whose name is not UTF-8 is read like any; a feed too
// large is bad input (not a missing one), from a file as from a pipe.

import Foundation
import Glibc
import Testing
@testable import SliceKit

@Suite struct FeedInputTests {
    /// A feed of more than one chunk (64 KiB), its times set an hour back, as an export's are
    /// by the next night: a rewrite in the same second as the test's own write would otherwise
    /// look unchanged to the file system's clock.
    static func feed(_ folder: String, rows: Int = 400) throws -> (path: String, text: String) {
        let text = "sku,notes\n" + (0..<rows).map { "S\($0),\(String(repeating: "n", count: 200))\n" }.joined()
        let path = folder + "/products.csv"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        var times = [timespec(tv_sec: time(nil) - 3600, tv_nsec: 0), timespec(tv_sec: time(nil) - 3600, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        return (path, text)
    }

    /// Every byte of `input`, or the error.
    static func drain(_ input: FeedInput) throws(FeedError) -> [UInt8] {
        try input.readAll()
    }

    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "slicevid-feed-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("a file left alone is read whole, and nothing is said")
    func unchanged() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (path, text) = try Self.feed(folder)
        let input = try FeedInput(path: path)
        #expect(try Self.drain(input) == Array(text.utf8))
        #expect(!input.hasChanged)
    }

    @Test("rewritten in place after the first chunk, with the same bytes, shorter or swapped by a rename: said at the end",
          arguments: ["same", "shorter", "renamed"])
    func changedWhileRead(_ change: String) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (path, text) = try Self.feed(folder)
        let rewrite: @Sendable (String, Int) -> Void = { file, chunk in
            guard chunk == 1, file == path else { return }
            switch change {
            case "same": try? Data(text.utf8).write(to: URL(fileURLWithPath: path))
            case "shorter": try? Data(text.utf8.prefix(70_000)).write(to: URL(fileURLWithPath: path))
            default:
                try? Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/next.csv"))
                rename(folder + "/next.csv", path)
            }
        }
        let input = try FeedInput(path: path)
        let read = FeedInput.$afterChunk.withValue(rewrite) { Result { () throws(FeedError) in try Self.drain(input) } }
        switch read {
        case .success(let bytes): Issue.record("\(change): read \(bytes.count) bytes as if nothing happened")
        case .failure(let error): #expect(error.isChanged && !error.isMissing && error.reason.hasPrefix("changed while it was read"), "\(error)")
        }
    }

    @Test("a feed in a folder whose name is not UTF-8 is read")
    func folderNotUTF8() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let name = PathBytes.text(Array("export-".utf8) + [0xFF])
        let inner = folder + "/" + name
        #expect(FileSystem.mkdir(inner, 0o755) == 0)
        let descriptor = FileSystem.open(inner + "/products.csv", O_WRONLY | O_CREAT | O_EXCL, 0o644)
        #expect(descriptor >= 0)
        _ = "sku\nA\n".withCString { write(descriptor, $0, 6) }
        close(descriptor)
        #expect(try Self.drain(try FeedInput(path: inner + "/products.csv")) == Array("sku\nA\n".utf8))
        // Gone is missing, and says so.
        do {
            _ = try FeedInput(path: inner + "/gone.csv")
            Issue.record("a missing feed was opened")
        } catch {
            #expect(error.isMissing && error.reason == "no such file")
        }
        FileSystem.remove(inner)
    }

    @Test("too large is the same refusal from a file and from a pipe: bad input, naming the limit")
    func tooLarge() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (path, text) = try Self.feed(folder, rows: 2)
        let limit = text.utf8.count - 1
        var fromFile: FeedError?
        do { _ = try Self.drain(try FeedInput(path: path, limit: limit)) } catch { fromFile = error }
        var pipe: [Int32] = [0, 0]
        #expect(Glibc.pipe(&pipe) == 0)
        _ = text.withCString { write(pipe[1], $0, text.utf8.count) }
        close(pipe[1])
        defer { close(pipe[0]) }
        var fromPipe: FeedError?
        do { _ = try Self.drain(FeedInput(descriptor: pipe[0], limit: limit) { false }) } catch { fromPipe = error }
        #expect(fromFile != nil && fromFile == fromPipe, "\(String(describing: fromFile)) / \(String(describing: fromPipe))")
        #expect(fromFile?.isMissing == false && fromFile?.reason.contains("the most a feed may be") == true)
    }
}
