// Background colours: parsing `#RRGGBB` and turning them into the values each plane stores.

/// An 8-bit sRGB colour with alpha, as written in `--background`.
public struct RGBAColor: Sendable, Equatable, CustomStringConvertible {
    public var red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    public static let black = RGBAColor(red: 0, green: 0, blue: 0)

    /// Parses `#RRGGBB` (or `RRGGBB`), `#RRGGBBAA`, or `transparent`.
    /// - Returns: nil when the text is none of these.
    public init?(hex text: String) {
        if text.lowercased() == "transparent" {
            self.init(red: 0, green: 0, blue: 0, alpha: 0)
            return
        }
        var digits = Substring(text)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 6 || digits.count == 8,
              digits.allSatisfy(\.isHexDigit),
              let value = UInt32(digits, radix: 16) else { return nil }
        let rgba = digits.count == 6 ? (value << 8) | 0xFF : value
        self.init(red: UInt8(rgba >> 24), green: UInt8((rgba >> 16) & 0xFF),
                  blue: UInt8((rgba >> 8) & 0xFF), alpha: UInt8(rgba & 0xFF))
    }

    /// `#rrggbb`, or `#rrggbbaa` when not opaque.
    public var description: String {
        func hex(_ v: UInt8) -> String { v < 16 ? "0" + String(v, radix: 16) : String(v, radix: 16) }
        return "#" + hex(red) + hex(green) + hex(blue) + (alpha == 255 ? "" : hex(alpha))
    }

    /// Y, Cb, Cr with BT.709 coefficients in limited (studio) range, the colour space every
    /// YUV output is tagged with.
    package var bt709LimitedYCbCr: (y: UInt8, cb: UInt8, cr: UInt8) {
        let r = Double(red) / 255, g = Double(green) / 255, b = Double(blue) / 255
        let kr = 0.2126, kb = 0.0722
        let luma = kr * r + (1 - kr - kb) * g + kb * b
        let cb = (b - luma) / (2 * (1 - kb))
        let cr = (r - luma) / (2 * (1 - kr))
        func clamp(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }
        return (clamp(16 + 219 * luma), clamp(128 + 224 * cb), clamp(128 + 224 * cr))
    }
}
