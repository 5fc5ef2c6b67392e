// HDR declared by an ICC profile's `cicp` tag is refused like HDR declared any other way
// (issue 23, item 7): Debian's Little CMS 2.14 returns NULL from cmsReadTag for the tag as
// ICC.1:2022 lays it out, so PQ and HLG profiles were drawn as SDR. The tag is read from the
// profile's bytes now.

import Foundation
import SliceKit
import StillFixtures
import Testing
@testable import SliceMedia

@Suite("ICC cicp tags")
struct ICCVideoSignalTests {
    /// Decodes the chart written as `format` with `profile`; the refusal's message, or nil.
    static func refusal(_ format: String, profile: [UInt8]) throws -> String? {
        try withTemporaryDirectory { dir -> String? in
            let path = "\(dir)/chart.\(format)"
            try ColourManagementTests.writeChart(format, to: path, profile: profile)
            do {
                _ = try ColourManagementTests.decodedChart(path)
                return nil
            } catch let error as MediaError {
                #expect(error.kind == .inputInvalid && error.subject == path, "\(error)")
                return error.message
            }
        }
    }

    @Test("a profile whose cicp says PQ or HLG refuses the still as HDR, in every format that carries a profile",
          arguments: [(16, "PQ"), (18, "HLG")], ["png", "jpg", "webp", "tiff"])
    func hdrProfiles(transfer: (code: UInt8, name: String), format: String) throws {
        let profile = TestProfiles.withVideoSignal(TestProfiles.displayP3, primaries: 9, transfer: transfer.code)
        #expect(ICCTagTable(profile).videoSignal == .codes(primaries: 9, transfer: Int(transfer.code)))
        let message = try Self.refusal(format, profile: profile)
        #expect(message?.hasPrefix("is an HDR still (\(transfer.name) transfer)") == true, "\(format): \(message ?? "decoded")")
    }

    @Test("an SDR cicp changes nothing: the profile converts as it does without the tag")
    func sdrProfile() throws {
        let tagged = TestProfiles.withVideoSignal(TestProfiles.displayP3, primaries: 12, transfer: 13)
        #expect(ICCTagTable(tagged).videoSignal == .codes(primaries: 12, transfer: 13))
        try withTemporaryDirectory { dir in
            try ColourManagementTests.writeChart("png", to: dir + "/tagged.png", profile: tagged)
            try ColourManagementTests.writeChart("png", to: dir + "/plain.png", profile: TestProfiles.displayP3)
            #expect(try ColourManagementTests.decodedChart(dir + "/tagged.png") == ColourManagementTests.decodedChart(dir + "/plain.png"))
        }
    }

    @Test("a cicp tag of the wrong type, too short, or lying outside the profile is refused: it cannot say whether the still is HDR")
    func damagedTags() throws {
        let base = TestProfiles.displayP3
        #expect(ICCTagTable(base).videoSignal == .absent)
        for (name, tag) in [("wrong type", Array("text".utf8) + [0, 0, 0, 0, 9, 16, 0, 1]), ("too short", Array("cicp".utf8) + [0, 0, 0, 0, 9])] {
            let profile = TestProfiles.withVideoSignal(base, primaries: 9, transfer: 16, tag: tag)
            #expect(ICCTagTable(profile).videoSignal == .damaged, "\(name)")
            let message = try Self.refusal("png", profile: profile)
            #expect(message?.contains("cicp tag is damaged") == true, "\(name): \(message ?? "decoded")")
        }
        // The last tag's offset moved past the end of the profile.
        var outside = TestProfiles.withVideoSignal(base, primaries: 9, transfer: 16)
        let count = (128..<132).reduce(0) { $0 << 8 | Int(outside[$1]) }
        let entry = 132 + 12 * (count - 1)
        #expect(Array(outside[entry..<(entry + 4)]) == Array("cicp".utf8))
        outside.replaceSubrange((entry + 4)..<(entry + 8), with: FixtureFiles.be32(UInt32(outside.count - 4)))
        #expect(ICCTagTable(outside).videoSignal == .damaged)
    }
}
