// WAV files written byte by byte, so a test chooses what no encoder writes: any channel count
// (1–70) with or without a channel mask, every sample format (8-bit unsigned, 16/24/32-bit
// integer, 32/64-bit float), and a header that lies about its bits per sample.

import Foundation

extension FixtureFiles {
    /// How a WAV's samples are stored.
    package enum WAVSamples: Sendable, CaseIterable {
        case unsigned8, signed16, signed24, signed32, float32, float64

        /// Bytes a sample takes.
        package var bytes: Int {
            switch self {
            case .unsigned8: 1
            case .signed16: 2
            case .signed24: 3
            case .signed32, .float32: 4
            case .float64: 8
            }
        }

        var isFloat: Bool { self == .float32 || self == .float64 }

        /// Appends `value` (-1…1) in this format, little-endian.
        func append(_ value: Double, to data: inout [UInt8]) {
            switch self {
            case .unsigned8: data.append(UInt8(clamping: Int((value * 127).rounded()) + 128))
            case .float32: withUnsafeBytes(of: Float(value).bitPattern.littleEndian) { data += $0 }
            case .float64: withUnsafeBytes(of: value.bitPattern.littleEndian) { data += $0 }
            default:
                let scale = Double((1 << (8 * bytes - 1)) - 1)
                let integer = Int64((value * scale).rounded())
                for byte in 0..<bytes { data.append(UInt8(truncatingIfNeeded: integer >> Int64(8 * byte))) }
            }
        }
    }

    /// Writes a WAV of `channels` channels whose sample `i` of channel `c` is `signal(i, c)`.
    /// - Parameters:
    ///   - declaredBits: the bits per sample the header states (the format's own by default).
    ///   - mask: a channel mask, written in a WAVE_FORMAT_EXTENSIBLE header; none by default
    ///     (WAVE_FORMAT_PCM or _IEEE_FLOAT, which say nothing of the speakers).
    package static func wav(_ path: String, channels: Int, rate: Int = 48_000, seconds: Double, samples: WAVSamples = .signed16,
                           declaredBits: Int? = nil, mask: UInt32? = nil, signal: (Int, Int) -> Double) throws {
        let count = Int((seconds * Double(rate)).rounded())
        var data: [UInt8] = []
        data.reserveCapacity(count * channels * samples.bytes)
        for i in 0..<count { for c in 0..<channels { samples.append(signal(i, c), to: &data) } }
        let tag: UInt16 = samples.isFloat ? 3 : 1
        let bits = UInt16(truncatingIfNeeded: declaredBits ?? 8 * samples.bytes)
        let block = channels * samples.bytes
        var format: [UInt8] = le(UInt32(mask == nil ? tag : 0xFFFE), 2)
        format += le(UInt32(channels), 2) + le(UInt32(rate), 4)
        format += le(UInt32(rate * block), 4) + le(UInt32(block), 2) + le(UInt32(bits), 2)
        if let mask {
            // cbSize 22, valid bits, the mask, then the sub-format GUID (the format tag, then a fixed tail).
            format += le(22, 2) + le(UInt32(bits), 2) + le(mask, 4) + le(UInt32(tag), 2)
            format += [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        }
        var body: [UInt8] = Array("WAVE".utf8) + Array("fmt ".utf8) + le(UInt32(format.count), 4)
        body += format + Array("data".utf8) + le(UInt32(data.count), 4)
        body += data
        try Data(Array("RIFF".utf8) + le(UInt32(body.count), 4) + body).write(to: URL(fileURLWithPath: path))
    }

    private static func le(_ value: UInt32, _ bytes: Int) -> [UInt8] {
        (0..<bytes).map { UInt8(truncatingIfNeeded: value >> UInt32(8 * $0)) }
    }
}
