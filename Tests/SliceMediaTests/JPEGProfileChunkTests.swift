// A JPEG's ICC profile comes in APP2 chunks numbered "n of N"; FFmpeg's decoder drops the
// profile with only a warning when one is missing or numbered wrong, and the still was drawn
// without its colours (issue 23, item 13). Such a still is refused as damaged; chunks whole but
// out of file order are put together by number, as every reader does.

import Foundation
import SliceKit
import StillFixtures
import Testing
@testable import SliceMedia

@Suite("JPEG ICC profile chunks")
struct JPEGProfileChunkTests {
    /// Display P3 padded with a private tag to span three APP2 chunks (each at most 65,519 bytes).
    static let bigProfile = TestProfiles.padded(TestProfiles.displayP3, by: 150_000)

    /// The JPEG's segments before its first scan, each as (offset, whole length including FF xx).
    static func segments(_ jpeg: [UInt8]) -> [(offset: Int, length: Int, marker: UInt8)] {
        var found: [(Int, Int, UInt8)] = []
        var offset = 2
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF, jpeg[offset + 1] != 0xDA {
            let length = 2 + (Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3]))
            found.append((offset, length, jpeg[offset + 1]))
            offset += length
        }
        return found
    }

    /// The ICC chunks' segments, in file order.
    static func iccChunks(_ jpeg: [UInt8]) -> [(offset: Int, length: Int, marker: UInt8)] {
        segments(jpeg).filter { $0.marker == 0xE2 && jpeg[($0.offset + 4)..<($0.offset + 15)].elementsEqual("ICC_PROFILE".utf8) }
    }

    /// Each damage: what it does to the bytes of a JPEG whose profile is in three chunks.
    static let damages: [(String, String, @Sendable ([UInt8]) -> [UInt8])] = [
        ("chunk 2 removed", "incomplete: chunk 2 of 3 missing", { bytes in
            let chunk = iccChunks(bytes)[1]
            return Array(bytes[..<chunk.offset] + bytes[(chunk.offset + chunk.length)...])
        }),
        ("the last chunk removed", "incomplete: chunk 3 of 3 missing", { bytes in
            let chunk = iccChunks(bytes)[2]
            return Array(bytes[..<chunk.offset] + bytes[(chunk.offset + chunk.length)...])
        }),
        ("chunk 1 twice, chunk 2 gone", "chunk 1 of 3 twice", { bytes in
            var bytes = bytes
            bytes[iccChunks(bytes)[1].offset + 16] = 1
            return bytes
        }),
        ("chunk numbered 0", "chunk 0 of 3", { bytes in
            var bytes = bytes
            bytes[iccChunks(bytes)[0].offset + 16] = 0
            return bytes
        }),
        ("chunk numbered past the count", "chunk 4 of 3", { bytes in
            var bytes = bytes
            bytes[iccChunks(bytes)[2].offset + 16] = 4
            return bytes
        }),
        ("counts that disagree", "disagree on their count (3 and 4)", { bytes in
            var bytes = bytes
            bytes[iccChunks(bytes)[1].offset + 17] = 4
            return bytes
        }),
    ]

    /// Writes the chart as a JPEG with `bigProfile`, changed by `change`; returns its path.
    static func write(in dir: String, _ change: ([UInt8]) -> [UInt8] = { $0 }) throws -> String {
        let path = dir + "/chart.jpg"
        try FixtureFiles.write(ColourChart.image(), to: path, jpeg: true, profile: bigProfile)
        let bytes = try DamagedStills.read(path)
        #expect(iccChunks(bytes).count == 3)
        try DamagedStills.write(change(bytes), to: path)
        return path
    }

    @Test("a JPEG whose ICC chunks are missing, doubled or misnumbered is refused as damaged, naming what is wrong", arguments: damages.indices)
    func damaged(_ index: Int) throws {
        let (name, words, damage) = Self.damages[index]
        try withTemporaryDirectory { dir in
            let path = try Self.write(in: dir, damage)
            let error = #expect(throws: MediaError.self, "\(name)") { _ = try ColourManagementTests.decodedChart(path) }
            #expect(error?.kind == .inputInvalid && error?.subject == path, "\(name): \(String(describing: error))")
            #expect(error?.message.hasPrefix("is truncated or corrupt (its ICC colour profile is") == true, "\(name): \(String(describing: error))")
            #expect(error?.message.contains(words) == true, "\(name): \(String(describing: error))")
        }
    }

    @Test("a profile in three chunks converts the colours, in file order or not")
    func wholeChunks() throws {
        let reference = ColourChart.reference(from: Self.bigProfile)
        try withTemporaryDirectory { dir in
            for order in [[0, 1, 2], [2, 0, 1]] {
                let path = try Self.write(in: dir) { bytes in
                    let chunks = Self.iccChunks(bytes)
                    let pieces = order.map { Array(bytes[chunks[$0].offset..<(chunks[$0].offset + chunks[$0].length)]) }
                    let end = chunks[2].offset + chunks[2].length
                    // The chunks are one run of segments: replace the run with them in the new order.
                    #expect(chunks[1].offset == chunks[0].offset + chunks[0].length && chunks[2].offset == chunks[1].offset + chunks[1].length)
                    return Array(bytes[..<chunks[0].offset]) + pieces.joined() + Array(bytes[end...])
                }
                let difference = ColourDifference.summary(try ColourManagementTests.decodedChart(path), reference)
                #expect(difference.mean <= 1.0 && difference.max <= 2.5, "order \(order): \(difference)")
            }
        }
    }
}
