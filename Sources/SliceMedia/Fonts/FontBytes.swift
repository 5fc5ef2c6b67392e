// Big-endian numbers read from a font file's bytes, each read checked against the end: a
// header that points past the file gives nil, never a read outside it.

/// A font file's bytes, read by offset.
struct FontBytes {
    private let bytes: UnsafeRawBufferPointer

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var count: Int { bytes.count }

    func uint8(at offset: Int) -> Int? {
        guard offset >= 0, offset < bytes.count else { return nil }
        return Int(bytes[offset])
    }

    func uint16(at offset: Int) -> Int? {
        guard let high = uint8(at: offset), let low = uint8(at: offset + 1) else { return nil }
        return high << 8 | low
    }

    func uint32(at offset: Int) -> Int? {
        guard let high = uint16(at: offset), let low = uint16(at: offset + 2) else { return nil }
        return high << 16 | low
    }

    /// Four bytes as a table tag or signature (`OTTO`, `cmap`), each byte one character.
    func tag(at offset: Int) -> String? {
        guard offset >= 0, offset <= bytes.count - 4 else { return nil }
        return String(decoding: (offset..<(offset + 4)).map { bytes[$0] }, as: Unicode.ASCII.self)
    }

    /// WOFF2's UIntBase128 at `position` (moved past it): at most five bytes, no leading
    /// zeros, at most 2³² − 1; nil when it breaks a rule or runs past the end.
    func base128(at position: inout Int) -> Int? {
        var value = 0
        for index in 0..<5 {
            guard let byte = uint8(at: position) else { return nil }
            position += 1
            if index == 0 && byte == 0x80 { return nil }
            value = value << 7 | (byte & 0x7F)
            guard value <= Int(UInt32.max) else { return nil }
            if byte & 0x80 == 0 { return value }
        }
        return nil
    }

    /// WOFF2's 255UInt16 at `position` (moved past it).
    func uint255(at position: inout Int) -> Int? {
        guard let code = uint8(at: position) else { return nil }
        position += 1
        switch code {
        case 253:
            guard let value = uint16(at: position) else { return nil }
            position += 2
            return value
        case 254, 255:
            guard let value = uint8(at: position) else { return nil }
            position += 1
            return value + (code == 255 ? 253 : 506)
        default:
            return code
        }
    }

    /// `1.3 MiB`, `64 MiB`: a size as messages give it.
    static func mebibytes(_ count: Int) -> String {
        let value = Double(count) / Double(1 << 20)
        if value >= 10 || value == value.rounded() { return "\(Int(value.rounded())) MiB" }
        return "\((value * 10).rounded() / 10) MiB"
    }

    /// A tag as a message shows it: printable ASCII kept, anything else as `?`.
    static func printable(_ tag: String) -> String {
        "'" + String(tag.unicodeScalars.map { (0x20..<0x7F).contains($0.value) ? Character($0) : "?" }) + "'"
    }
}
