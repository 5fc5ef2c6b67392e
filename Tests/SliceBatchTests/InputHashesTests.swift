// A file this run already read (the cache's object, checked when it was fetched) is not read
// again by the survey while its stamp is unchanged; any change to it (its size, a file renamed
// over it) makes the survey read it.

import Foundation
import Glibc
import ScratchFixtures
import SliceKit
import SliceMedia
import SlicePipeline
import Testing
@testable import SliceBatch

@Suite struct InputHashesTests {
    @Test func aFileKnownAndUnchangedIsNotReadAgainAndAChangedOneIs() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let path = scratch.path + "/object.png"
        try Data("the bytes".utf8).write(to: URL(fileURLWithPath: path))
        let digest = SHA256.hex(of: "the bytes")

        // Known with its stamp: the digest told, no byte read.
        let known = InputHashes()
        known.know(path, digest: digest, stamp: try #require(InputStamp(path: path)))
        #expect(try known.hash(path, cancellation: Cancellation()) == digest)
        #expect(known.filesRead == 0)
        #expect(known.stamp(of: path) == InputStamp(path: path))

        // Rewritten (another size) after it was stamped: read, its new digest.
        let grown = InputHashes()
        grown.know(path, digest: digest, stamp: try #require(InputStamp(path: path)))
        try Data("the new bytes".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try grown.hash(path, cancellation: Cancellation()) == SHA256.hex(of: "the new bytes"))
        #expect(grown.filesRead == 1)

        // Another file renamed over it, same size: read.
        let replaced = InputHashes()
        replaced.know(path, digest: digest, stamp: try #require(InputStamp(path: path)))
        try Data("the old bytes".utf8).write(to: URL(fileURLWithPath: path + ".new"))
        #expect(rename(path + ".new", path) == 0)
        #expect(try replaced.hash(path, cancellation: Cancellation()) == SHA256.hex(of: "the old bytes"))
        #expect(replaced.filesRead == 1)
    }
}
