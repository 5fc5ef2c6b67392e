// Paths are bytes to the kernel and text to Swift. A path keeps every byte it was given: a byte
// that is not UTF-8 rides in the String as a stand-in scalar and becomes that byte again where
// the path reaches the kernel (`FileSystem`); messages show it as `\xFF` (`InputText`).

/// The bytes of a path, carried in a `String`, as Python's `surrogateescape` carries them (PEP
/// 383) but with private-use scalars, since a Swift String cannot hold a lone surrogate.
///
/// A byte b (0x80…0xFF) that is not part of valid UTF-8 is the scalar U+EF00 + b, one of
/// U+EF80…U+EFFF. So that the mapping is exact both ways, a name's own U+EF80…U+EFFF (valid
/// UTF-8, private use, so rare) is held as the stand-ins of its three bytes: every String made
/// here turns back into exactly the bytes it was made from.
package enum PathBytes {
    /// The scalars that stand for one byte each.
    package static let standIns: ClosedRange<UInt32> = 0xEF80...0xEFFF

    /// `bytes` (an argument, a folder's entry, a resolved path) as a String that keeps each one.
    package static func text(_ bytes: some Collection<UInt8>) -> String {
        // The stand-ins' UTF-8 all starts with 0xEE; without one, valid UTF-8 is itself.
        if !bytes.contains(0xEE), let text = String(validating: bytes, as: UTF8.self) { return text }
        let bytes = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            if let (value, length) = scalar(in: bytes, at: index), !standIns.contains(value) {
                scalars.append(Unicode.Scalar(value)!)
                index += length
            } else if let (_, length) = scalar(in: bytes, at: index) {
                // A name's own stand-in-range scalar: its bytes, each as a stand-in.
                for byte in bytes[index..<(index + length)] { scalars.append(standIn(byte)) }
                index += length
            } else {
                scalars.append(standIn(bytes[index]))
                index += 1
            }
        }
        return String(scalars)
    }

    /// A path written as UTF-8 text (a manifest's or a layout's JSON string): the String whose
    /// bytes are that text's, so its own U+EF80…U+EFFF, if any, stay what they are on disk.
    package static func text(utf8 path: String) -> String {
        path.utf8.contains(0xEE) ? text(Array(path.utf8)) : path
    }

    /// The bytes `path` stands for, without a terminating NUL.
    package static func bytes(_ path: some StringProtocol) -> [UInt8] {
        guard path.utf8.contains(0xEE) else { return Array(path.utf8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if let byte = byte(of: scalar) { bytes.append(byte) } else { bytes.append(contentsOf: UTF8.encode(scalar)!) }
        }
        return bytes
    }

    /// Calls `body` with `path`'s bytes as a NUL-terminated C string (a NUL inside `path` ends
    /// it there, as it would for any C string).
    package static func withCString<R, E: Error>(_ path: String, _ body: (UnsafePointer<CChar>) throws(E) -> R) throws(E) -> R {
        guard path.utf8.contains(0xEE) else {
            return try path.withCString { pointer -> Result<R, E> in
                do throws(E) { return .success(try body(pointer)) } catch { return .failure(error) }
            }.get()
        }
        let terminated = bytes(path).map { CChar(bitPattern: $0) } + [0]
        return try terminated.withUnsafeBufferPointer { buffer -> Result<R, E> in
            do throws(E) { return .success(try body(buffer.baseAddress!)) } catch { return .failure(error) }
        }.get()
    }

    /// The byte a stand-in scalar holds; nil for every other scalar.
    package static func byte(of scalar: Unicode.Scalar) -> UInt8? {
        standIns.contains(scalar.value) ? UInt8(scalar.value - 0xEF00) : nil
    }

    /// The scalar that stands for `byte` (0x80…0xFF).
    private static func standIn(_ byte: UInt8) -> Unicode.Scalar {
        Unicode.Scalar(0xEF00 + UInt32(byte))!
    }

    /// The scalar whose well-formed UTF-8 starts at `index`, and its length in bytes; nil
    /// where the bytes there are not UTF-8 (RFC 3629: no overlong forms, no surrogates,
    /// nothing past U+10FFFF).
    private static func scalar(in bytes: [UInt8], at index: Int) -> (value: UInt32, length: Int)? {
        let lead = bytes[index]
        if lead < 0x80 { return (UInt32(lead), 1) }
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; second = 0xA0...0xBF
        case 0xED: length = 3; second = 0x80...0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0: length = 4; second = 0x90...0xBF
        case 0xF4: length = 4; second = 0x80...0x8F
        case 0xF1...0xF3: length = 4
        default: return nil
        }
        guard index + length <= bytes.count, second.contains(bytes[index + 1]) else { return nil }
        var value = UInt32(lead) & (0xFF >> (length + 1))
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        return (value, length)
    }
}
