// A HEIC whose primary image is a grid of tiles, as cameras store large photos. libheif 1.15
// writes no grids, so one tile written by HEIFWriter is taken apart (its hvcC and its coded
// picture) and the grid built around it box by box, every tile item pointing at the same
// coded bytes. libheif decodes such a grid tile by tile, reading each tile's data just before
// decoding it: a decode that reads all through its time.

import Foundation
import SliceKit

/// HEIC grid images built from one tile.
package enum HEIFGrid {
    /// Writes a `columns` × `rows` grid of `tile` (lossy, so it decodes like a camera's) to `path`.
    package static func write(tile: RGBAImage, columns: Int, rows: Int, to path: String) throws {
        precondition((1...256).contains(columns) && (1...256).contains(rows) && columns * rows < 0x7FFF)
        let single = path + ".tile.heic"
        defer { try? FileManager.default.removeItem(atPath: single) }
        try HEIFWriter.heic(tile, to: single, lossless: false)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: single)))
        guard let meta = box("meta", in: bytes, 0..<bytes.count), let mdat = box("mdat", in: bytes, 0..<bytes.count),
              let iprp = box("iprp", in: bytes, (meta.lowerBound + 12)..<meta.upperBound),
              let ipco = box("ipco", in: bytes, (iprp.lowerBound + 8)..<iprp.upperBound),
              let hvcC = box("hvcC", in: bytes, (ipco.lowerBound + 8)..<ipco.upperBound) else {
            throw FixtureError("libheif wrote a HEIC without the boxes a tile needs")
        }
        // The single image is the only item: mdat holds its coded picture and nothing else.
        let coded = Array(bytes[(mdat.lowerBound + 8)..<mdat.upperBound])
        let tiles = columns * rows
        let width = tile.width * columns, height = tile.height * rows
        let descriptor: [UInt8] = [0, 0, UInt8(rows - 1), UInt8(columns - 1)] + be16(width) + be16(height)

        func metaBox(mdatStart: Int) -> [UInt8] {
            let gridData = mdatStart + 8, tileData = gridData + descriptor.count
            var iloc: [UInt8] = [0x44, 0x00] + be16(tiles + 1)
            iloc += be16(1) + be16(0) + be16(1) + be32(gridData) + be32(descriptor.count)
            for id in 2...(tiles + 1) { iloc += be16(id) + be16(0) + be16(1) + be32(tileData) + be32(coded.count) }
            var infos = be16(tiles + 1) + fullBox("infe", version: 2, be16(1) + be16(0) + Array("grid".utf8) + [0])
            for id in 2...(tiles + 1) { infos += fullBox("infe", version: 2, be16(id) + be16(0) + Array("hvc1".utf8) + [0]) }
            let dimg = plainBox("dimg", be16(1) + be16(tiles) + (2...(tiles + 1)).flatMap(be16))
            let properties = plainBox("ipco", Array(bytes[hvcC])
                                      + fullBox("ispe", be32(tile.width) + be32(tile.height))
                                      + fullBox("ispe", be32(width) + be32(height)))
            // Grid: ispe 3. Tiles: hvcC 1 (essential), ispe 2.
            var associations = be32(tiles + 1) + be16(1) + [1, 3]
            for id in 2...(tiles + 1) { associations += be16(id) + [2, 0x81, 2] }
            return fullBox("meta",
                           fullBox("hdlr", be32(0) + Array("pict".utf8) + be32(0) + be32(0) + be32(0) + [0])
                           + fullBox("pitm", be16(1))
                           + fullBox("iloc", iloc)
                           + fullBox("iinf", infos)
                           + fullBox("iref", dimg)
                           + plainBox("iprp", properties + fullBox("ipma", associations)))
        }
        let ftyp = plainBox("ftyp", Array("heic".utf8) + be32(0) + Array("mif1".utf8) + Array("heic".utf8))
        // Offsets have a fixed width, so the meta box's size does not depend on them.
        let start = ftyp.count + metaBox(mdatStart: 0).count
        let file = ftyp + metaBox(mdatStart: start) + plainBox("mdat", descriptor + coded)
        try Data(file).write(to: URL(fileURLWithPath: path))
    }

    /// The byte range of the first box of `type` among the boxes laid end to end in `range`.
    private static func box(_ type: String, in bytes: [UInt8], _ range: Range<Int>) -> Range<Int>? {
        var at = range.lowerBound
        while at + 8 <= range.upperBound {
            let size = bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
            guard size >= 8, at + size <= range.upperBound else { return nil }
            if Array(bytes[(at + 4)..<(at + 8)]) == Array(type.utf8) { return at..<(at + size) }
            at += size
        }
        return nil
    }

    private static func plainBox(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(8 + payload.count) + Array(type.utf8) + payload
    }

    private static func fullBox(_ type: String, version: UInt8 = 0, _ payload: [UInt8]) -> [UInt8] {
        plainBox(type, [version, 0, 0, 0] + payload)
    }

    private static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    private static func be32(_ value: Int) -> [UInt8] { be16(value >> 16) + be16(value & 0xFFFF) }
}
