// Colour references made by the tests themselves (no media is committed): ICC profiles built
// with Little CMS from their published primaries, a colour chart and its conversion by Little
// CMS, and the colour difference the tests judge by (CIEDE2000).

import CLcms2
import Foundation
import SliceKit

/// ICC profiles as bytes, built in code.
package enum TestProfiles {
    static let d65 = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)

    /// Display P3 (Apple): DCI-P3 primaries, D65, the sRGB curve.
    package static let displayP3 = rgb((0.680, 0.320), (0.265, 0.690), (0.150, 0.060), curve: srgbCurve())
    /// Adobe RGB (1998): its primaries, D65, gamma 563/256.
    package static let adobeRGB = rgb((0.64, 0.33), (0.21, 0.71), (0.15, 0.06), curve: cmsBuildGamma(nil, 563.0 / 256))
    /// sRGB as lcms builds it: an embedded sRGB profile, which must change nothing.
    package static let sRGB = bytes(of: cmsCreate_sRGBProfile())
    /// Grey with gamma 2.2.
    package static let grey22: [UInt8] = {
        var white = d65
        let curve = cmsBuildGamma(nil, 2.2)
        defer { cmsFreeToneCurve(curve) }
        return bytes(of: cmsCreateGrayProfile(&white, curve))
    }()
    /// A CMYK output profile's header and no more: enough for its colour space to show.
    package static let cmyk: [UInt8] = {
        let profile = cmsCreateProfilePlaceholder(nil)
        cmsSetColorSpace(profile, cmsSigCmykData)
        cmsSetDeviceClass(profile, cmsSigOutputClass)
        cmsSetPCS(profile, cmsSigLabData)
        return bytes(of: profile)
    }()

    package static func srgbCurve() -> OpaquePointer? {
        let parameters: [Double] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        return cmsBuildParametricToneCurve(nil, 4, parameters)
    }

    /// An RGB profile from primaries (D65 white) and one curve (which it frees).
    package static func rgb(_ r: (Double, Double), _ g: (Double, Double), _ b: (Double, Double), curve: OpaquePointer?) -> [UInt8] {
        var white = d65
        var primaries = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: r.0, y: r.1, Y: 1), Green: cmsCIExyY(x: g.0, y: g.1, Y: 1),
                                        Blue: cmsCIExyY(x: b.0, y: b.1, Y: 1))
        var curves = [curve, curve, curve]
        defer { cmsFreeToneCurve(curve) }
        return bytes(of: cmsCreateRGBProfile(&white, &primaries, &curves))
    }

    /// `profile` with a `cicp` tag as ICC.1:2022 lays it out (type, reserved, then primaries,
    /// transfer, matrix 0 and full range 1), or with `tag` as its raw bytes instead.
    package static func withVideoSignal(_ profile: [UInt8], primaries: UInt8, transfer: UInt8, tag: [UInt8]? = nil) -> [UInt8] {
        let opened = profile.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }
        let raw = tag ?? Array("cicp".utf8) + [0, 0, 0, 0, primaries, transfer, 0, 1]
        precondition(cmsWriteRawTag(opened, cmsSigcicpTag, raw, UInt32(raw.count)) != 0)
        return bytes(of: opened)
    }

    /// `profile` grown by a private tag of `extra` bytes: a profile that spans several of a
    /// JPEG's APP2 chunks (each at most 65,519 bytes).
    package static func padded(_ profile: [UInt8], by extra: Int) -> [UInt8] {
        let opened = profile.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }
        let padding = Array("zzzz".utf8) + [0, 0, 0, 0] + [UInt8](repeating: 0x5A, count: extra)
        precondition(cmsWriteRawTag(opened, cmsTagSignature(0x7A7A_7A7A), padding, UInt32(padding.count)) != 0)
        return bytes(of: opened)
    }

    /// Serialises and closes a profile.
    static func bytes(of profile: UnsafeMutableRawPointer?) -> [UInt8] {
        defer { cmsCloseProfile(profile) }
        var size: UInt32 = 0
        cmsSaveProfileToMem(profile, nil, &size)
        var bytes = [UInt8](repeating: 0, count: Int(size))
        cmsSaveProfileToMem(profile, &bytes, &size)
        return bytes
    }
}

/// A 24-patch chart: primaries, secondaries, greys and photographic colours, 6 × 4 patches.
package enum ColourChart {
    package static let patches: [RGBAColor] = [
        (255, 0, 0), (0, 255, 0), (0, 0, 255), (0, 255, 255), (255, 0, 255), (255, 255, 0),
        (255, 255, 255), (192, 192, 192), (128, 128, 128), (64, 64, 64), (16, 16, 16), (0, 0, 0),
        (115, 82, 68), (194, 150, 130), (98, 122, 157), (87, 108, 67), (133, 128, 177), (103, 189, 170),
        (214, 126, 44), (80, 91, 166), (193, 90, 99), (94, 60, 108), (157, 188, 64), (224, 163, 46),
    ].map { RGBAColor(red: $0.0, green: $0.1, blue: $0.2) }

    /// The chart with patches `patch` pixels square.
    package static func image(patch: Int = 16) -> RGBAImage {
        var image = RGBAImage(width: 6 * patch, height: 4 * patch)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let c = patches[(y / patch) * 6 + x / patch], i = 4 * (y * image.width + x)
                (image.pixels[i], image.pixels[i + 1], image.pixels[i + 2]) = (c.red, c.green, c.blue)
            }
        }
        return image
    }

    /// The centre pixel of each patch of a chart drawn at `patch` pixels a patch.
    package static func centres(of image: RGBAImage, patch: Int = 16) -> [RGBAColor] {
        (0..<24).map { image[($0 % 6) * patch + patch / 2, ($0 / 6) * patch + patch / 2] }
    }

    /// The patches converted from `profile` to sRGB by Little CMS itself (relative
    /// colorimetric with black-point compensation, in doubles, rounded once).
    package static func reference(from profile: [UInt8]) -> [RGBAColor] { reference(of: patches, from: profile) }

    /// `colors` converted from `profile` to sRGB the same way.
    package static func reference(of colors: [RGBAColor], from profile: [UInt8]) -> [RGBAColor] {
        let source = profile.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }
        let target = cmsCreate_sRGBProfile()
        defer { cmsCloseProfile(source); cmsCloseProfile(target) }
        let doubles = clcms2_type_rgb_dbl()
        let transform = cmsCreateTransform(source, doubles, target, doubles, UInt32(INTENT_RELATIVE_COLORIMETRIC),
                                           UInt32(cmsFLAGS_BLACKPOINTCOMPENSATION | cmsFLAGS_NOOPTIMIZE))
        defer { cmsDeleteTransform(transform) }
        return colors.map { color in
            let input = [Double(color.red), Double(color.green), Double(color.blue)].map { $0 / 255 }
            var output = [Double](repeating: 0, count: 3)
            cmsDoTransform(transform, input, &output, 1)
            let c = output.map { UInt8(max(0, min(255, ($0 * 255).rounded()))) }
            return RGBAColor(red: c[0], green: c[1], blue: c[2])
        }
    }
}

/// CIEDE2000 between sRGB colours (Lab D50, through Little CMS).
package enum ColourDifference {
    // nonisolated(unsafe): made once, then only run; a NOCACHE transform keeps no state between calls.
    nonisolated(unsafe) private static let toLab: UnsafeMutableRawPointer? = {
        let srgb = cmsCreate_sRGBProfile(), lab = cmsCreateLab4Profile(nil)
        defer { cmsCloseProfile(srgb); cmsCloseProfile(lab) }
        return cmsCreateTransform(srgb, clcms2_type_rgb_8(), lab, clcms2_type_lab_dbl(), UInt32(INTENT_RELATIVE_COLORIMETRIC),
                                  UInt32(cmsFLAGS_NOCACHE))
    }()

    package static func lab(_ c: RGBAColor) -> cmsCIELab {
        var out = cmsCIELab(L: 0, a: 0, b: 0)
        let input = [c.red, c.green, c.blue]
        cmsDoTransform(toLab, input, &out, 1)
        return out
    }

    package static func cie2000(_ a: RGBAColor, _ b: RGBAColor) -> Double {
        var x = lab(a), y = lab(b)
        return cmsCIE2000DeltaE(&x, &y, 1, 1, 1)
    }

    /// Mean and largest CIEDE2000 of pairs.
    package static func summary(_ a: [RGBAColor], _ b: [RGBAColor]) -> (mean: Double, max: Double) {
        let all = zip(a, b).map { cie2000($0, $1) }
        return (all.reduce(0, +) / Double(all.count), all.max() ?? 0)
    }
}
