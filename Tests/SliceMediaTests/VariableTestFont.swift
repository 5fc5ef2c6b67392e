// A variable TrueType font made in code for the weight tests (no font file is committed): one
// glyph, "I", a stem 100 units wide at the default weight 400, 50 at wght 100 and 400 at wght
// 900 (its advance growing with it), with Thin, Regular and Black named instances. Table
// layouts from the OpenType specification (head, hhea, maxp, OS/2, hmtx, cmap 4, loca, glyf,
// name, post 3, fvar, gvar with embedded peak tuples and packed deltas).

import Foundation

enum VariableTestFont {
    static let family = "Slicevid Test Variable"

    /// The font file's bytes.
    static var bytes: [UInt8] {
        let notdef = glyph(x0: 50, x1: 450), stem = glyph(x0: 100, x1: 200)
        let tables: [(String, [UInt8])] = [
            ("OS/2", os2), ("cmap", cmap), ("fvar", fvar), ("glyf", notdef + stem), ("gvar", gvar),
            ("head", head(checksumAdjustment: 0)), ("hhea", hhea), ("hmtx", be16(500) + be16(50) + be16(300) + be16(100)),
            ("loca", be16(0) + be16(notdef.count / 2) + be16((notdef.count + stem.count) / 2)),
            ("maxp", be32(0x0001_0000) + be16(2) + be16(4) + be16(1) + be16(0) + be16(0) + be16(2) + [UInt8](repeating: 0, count: 16)),
            ("name", name), ("post", be32(0x0003_0000) + [UInt8](repeating: 0, count: 28)),
        ]
        var file = be32(0x0001_0000) + be16(tables.count) + be16(128) + be16(3) + be16(tables.count * 16 - 128)
        var offset = file.count + 16 * tables.count
        var body: [UInt8] = []
        for (tag, data) in tables {
            file += Array(tag.utf8) + be32(Int(checksum(data))) + be32(offset) + be32(data.count)
            let padded = data + [UInt8](repeating: 0, count: (4 - data.count % 4) % 4)
            body += padded
            offset += padded.count
        }
        file += body
        // head's checkSumAdjustment makes the whole file sum to 0xB1B0AFBA.
        let adjustment = UInt32(0xB1B0_AFBA) &- checksum(file)
        let headOffset = file.count - body.count + tables.prefix { $0.0 != "head" }.reduce(0) { $0 + ($1.1.count + 3) / 4 * 4 }
        file.replaceSubrange((headOffset + 8)..<(headOffset + 12), with: be32(Int(adjustment)))
        return file
    }

    private static func be16(_ value: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)] }
    private static func be32(_ value: Int) -> [UInt8] { be16(value >> 16) + be16(value) }

    private static func checksum(_ data: [UInt8]) -> UInt32 {
        var sum: UInt32 = 0
        for i in stride(from: 0, to: data.count, by: 4) {
            var word: UInt32 = 0
            for j in 0..<4 { word = word << 8 | UInt32(i + j < data.count ? data[i + j] : 0) }
            sum &+= word
        }
        return sum
    }

    /// A rectangle from x0 to x1, 0 to 700 high: one contour of four on-curve points, as deltas.
    private static func glyph(x0: Int, x1: Int) -> [UInt8] {
        be16(1) + be16(x0) + be16(0) + be16(x1) + be16(700) + be16(3) + be16(0) + [1, 1, 1, 1]
            + be16(x0) + be16(0) + be16(x1 - x0) + be16(0) + be16(0) + be16(700) + be16(0) + be16(-700)
    }

    private static func head(checksumAdjustment: Int) -> [UInt8] {
        be32(0x0001_0000) + be32(0x0001_0000) + be32(checksumAdjustment) + be32(0x5F0F_3CF5) + be16(3) + be16(1000)
            + [UInt8](repeating: 0, count: 16) + be16(50) + be16(0) + be16(450) + be16(700) + be16(0) + be16(3) + be16(2) + be16(0) + be16(0)
    }

    private static let hhea = be32(0x0001_0000) + be16(800) + be16(-200) + be16(0) + be16(500) + be16(50) + be16(50) + be16(450)
        + be16(1) + be16(0) + be16(0) + [UInt8](repeating: 0, count: 8) + be16(0) + be16(2)

    private static let os2: [UInt8] = be16(3) + be16(400) + be16(400) + be16(5) + be16(0) + [UInt8](repeating: 0, count: 22)
        + [UInt8](repeating: 0, count: 10) + be32(1) + be32(0) + be32(0) + be32(0) + Array("NONE".utf8) + be16(0x40)
        + be16(0x49) + be16(0x49) + be16(800) + be16(-200) + be16(0) + be16(800) + be16(200) + be32(1) + be32(0)
        + be16(0) + be16(700) + be16(0) + be16(32) + be16(0)

    /// Format 4, Windows Unicode: "I" (U+0049) is glyph 1.
    private static let cmap: [UInt8] = be16(0) + be16(1) + be16(3) + be16(1) + be32(12)
        + be16(4) + be16(32) + be16(0) + be16(4) + be16(4) + be16(1) + be16(0)
        + be16(0x49) + be16(0xFFFF) + be16(0) + be16(0x49) + be16(0xFFFF) + be16(1 - 0x49) + be16(1) + be16(0) + be16(0)

    private static let name: [UInt8] = {
        let strings: [(Int, String)] = [(1, family), (2, "Regular"), (256, "Weight"), (257, "Thin"), (258, "Black")]
        var records = be16(0) + be16(strings.count) + be16(6 + 12 * strings.count), storage: [UInt8] = []
        for (id, text) in strings {
            let utf16 = text.utf16.flatMap { be16(Int($0)) }
            records += be16(3) + be16(1) + be16(0x409) + be16(id) + be16(utf16.count) + be16(storage.count)
            storage += utf16
        }
        return records + storage
    }()

    /// One weight axis, 100 … 400 … 900, and three named instances.
    private static let fvar: [UInt8] = be16(1) + be16(0) + be16(16) + be16(2) + be16(1) + be16(20) + be16(3) + be16(8)
        + Array("wght".utf8) + be32(100 << 16) + be32(400 << 16) + be32(900 << 16) + be16(0) + be16(256)
        + be16(257) + be16(0) + be32(100 << 16) + be16(2) + be16(0) + be32(400 << 16) + be16(258) + be16(0) + be32(900 << 16)

    /// The stem's right edge and the advance (points 2, 3 and phantom point 5 of 8) move by +300
    /// at wght 900 (peak +1.0) and by -50 at wght 100 (peak -1.0).
    private static let gvar: [UInt8] = {
        func deltas(_ dx: Int) -> [UInt8] {
            [0x40 | 7] + [0, 0, dx, dx, 0, dx, 0, 0].flatMap { be16($0) } + [0x80 | 7]
        }
        let wide = deltas(300), thin = deltas(-50)
        // Two tuples sharing their point numbers: "0", every point. Padded to an even length.
        let data = be16(0x8000 | 2) + be16(16) + be16(wide.count) + be16(0x8000) + be16(0x4000) + be16(thin.count) + be16(0x8000) + be16(0xC000)
            + [0] + wide + thin + [0]
        return be16(1) + be16(0) + be16(1) + be16(0) + be32(26) + be16(2) + be16(0) + be32(26)
            + be16(0) + be16(0) + be16(data.count / 2) + data
    }()
}
