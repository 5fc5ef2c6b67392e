// A still's colours converted to sRGB with Little CMS 2: relative colorimetric with black-point
// compensation (Photoshop's "Convert to Profile" default and CSS Color 4's choice; for the
// matrix-shaper profiles cameras and phones write it equals perceptual). Out-of-gamut colours
// are clipped. Each distinct profile or set of tags is turned into a transform once per
// process and shared by every still (and thread) that needs it.

import CLcms2
import Foundation
import SliceKit
import Synchronization

/// The conversion of one colour source (a profile, or tags) to sRGB.
final class ColourConversion: @unchecked Sendable {
    // @unchecked: the transforms are made with cmsFLAGS_NOCACHE, so cmsDoTransform keeps no
    // state between calls and one transform may run on several threads at once (since lcms 2.3
    // each call has its own cache copy anyway); the lazily made 16-bit parts are behind a Mutex.

    /// Whether converting changes nothing: sRGB itself, or a profile that maps every probed
    /// colour onto itself (an embedded sRGB profile). The caller then skips the conversion.
    let isIdentity: Bool
    /// Whether the profile describes grey pictures (it then applies to grey pixels only).
    let isGrey: Bool
    /// Kept while the context lives: the context's error handler writes to it.
    private let log: LcmsLog
    private let context: OpaquePointer?
    private let source: UnsafeMutableRawPointer
    private let target: UnsafeMutableRawPointer
    private let transform8: UnsafeMutableRawPointer?
    /// Grey profiles as tables: grey level → sRGB R, G, B.
    private let greyTable8: [UInt8]
    private let wide = Mutex<WideParts>(WideParts())

    /// The 16-bit transform or grey table, once made.
    private struct WideParts: @unchecked Sendable {
        // @unchecked: the transform is only read after it is made (under the Mutex), and
        // NOCACHE transforms may be run from several threads at once (see the class).
        var transform: UnsafeMutableRawPointer?
        var greyTable: [UInt16] = []
    }

    private static let flags = UInt32(cmsFLAGS_BLACKPOINTCOMPENSATION | cmsFLAGS_COPY_ALPHA | cmsFLAGS_NOCACHE)
    private static let intent = UInt32(INTENT_RELATIVE_COLORIMETRIC)

    /// The conversion for `colour`, made on first use and cached.
    /// - Throws: `ColourRefusal` for a damaged or unusable profile, CMYK, or HDR.
    /// - Returns: nil for sRGB, which needs no conversion.
    static func of(_ colour: StillColour) throws(ColourRefusal) -> ColourConversion? {
        colour == .sRGB ? nil : try ColourConversionCache.shared.conversion(for: colour)
    }

    /// Builds the conversion (uncached; see `of`).
    init(_ colour: StillColour) throws(ColourRefusal) {
        try Self.refuseHDR(colour)
        // A context per conversion, so lcms's complaint about this profile reaches this message.
        let log = LcmsLog()
        let context = cmsCreateContext(nil, Unmanaged.passUnretained(log).toOpaque())
        cmsSetLogErrorHandlerTHR(context) { context, _, text in
            guard let raw = cmsGetContextUserData(context), let text else { return }
            let log = Unmanaged<LcmsLog>.fromOpaque(raw).takeUnretainedValue()
            if log.first == nil { log.first = String(cString: text) }
        }
        let unusable = { (what: String) in
            ColourRefusal(message: "carries \(what) Little CMS cannot use (\(log.first.map { FFmpegLog.quoted($0) } ?? "no reason given"))")
        }
        guard let source = Self.profile(colour, context: context) else {
            cmsDeleteContext(context)
            throw unusable("an ICC colour profile")
        }
        guard let target = cmsCreate_sRGBProfileTHR(context) else {
            cmsCloseProfile(source)
            cmsDeleteContext(context)
            throw unusable("colours")
        }
        var transform8: UnsafeMutableRawPointer?
        var greyTable: [UInt8] = []
        do throws(ColourRefusal) {
            switch cmsGetColorSpace(source) {
            case cmsSigRgbData:
                transform8 = cmsCreateTransformTHR(context, source, clcms2_type_rgba_8(), target, clcms2_type_rgba_8(), Self.intent, Self.flags)
                if transform8 == nil { throw unusable("an ICC colour profile") }
            case cmsSigGrayData:
                guard let transform = cmsCreateTransformTHR(context, source, clcms2_type_gray_8(), target, clcms2_type_rgb_8(),
                                                            Self.intent, Self.flags) else { throw unusable("a grey ICC colour profile") }
                greyTable = [UInt8](repeating: 0, count: 3 * 256)
                let levels = (0...255).map { UInt8($0) }
                cmsDoTransform(transform, levels, &greyTable, 256)
                cmsDeleteTransform(transform)
            case cmsSigCmykData:
                throw ColourRefusal(message: "carries a CMYK colour profile; slicevid converts RGB and grey pictures only: convert it to RGB first")
            case let space:
                throw ColourRefusal(message: "carries an ICC colour profile for \(Self.name(of: space)) colours; slicevid converts RGB and grey profiles only")
            }
        } catch {
            cmsCloseProfile(source)
            cmsCloseProfile(target)
            cmsDeleteContext(context)
            throw error
        }
        self.log = log
        self.context = context
        self.source = source
        self.target = target
        self.transform8 = transform8
        greyTable8 = greyTable
        isGrey = transform8 == nil
        isIdentity = Self.mapsOntoItself(transform8: transform8, greyTable: greyTable)
    }

    deinit {
        wide.withLock { state in
            if let transform = state.transform { cmsDeleteTransform(transform) }
        }
        if let transform8 { cmsDeleteTransform(transform8) }
        cmsCloseProfile(source)
        cmsCloseProfile(target)
        cmsDeleteContext(context)
    }

    /// Converts an 8-bit RGBA picture in place (alpha kept; grey profiles read R).
    func apply(to image: inout RGBAImage) {
        guard !isIdentity else { return }
        let count = image.width * image.height
        image.pixels.withUnsafeMutableBufferPointer { pixels in
            guard let base = pixels.baseAddress else { return }
            if let transform8 {
                // One call per row keeps each call's work small; rows are contiguous.
                for y in 0..<image.height {
                    let row = base + 4 * image.width * y
                    cmsDoTransform(transform8, row, row, UInt32(image.width))
                }
            } else {
                for i in 0..<count {
                    let p = base + 4 * i, level = Int(p[0]) * 3
                    (p[0], p[1], p[2]) = (greyTable8[level], greyTable8[level + 1], greyTable8[level + 2])
                }
            }
        }
    }

    /// Converts a 16-bit planar picture in place (its alpha plane, if any, untouched; grey
    /// profiles read R).
    func apply(to image: RGBA16Image) {
        guard !isIdentity else { return }
        let (transform, table) = wideParts()
        if let transform {
            let rowBytes = UInt32(image.stride * 2), planeBytes = UInt32(image.planeBytes)
            for y in 0..<image.height {
                let rows = UnsafeMutableRawPointer(image.row(0, y))
                cmsDoTransformLineStride(transform, rows, rows, UInt32(image.width), 1, rowBytes, rowBytes, planeBytes, planeBytes)
            }
        } else {
            table.withUnsafeBufferPointer { table in
                for y in 0..<image.height {
                    let r = image.row(0, y), g = image.row(1, y), b = image.row(2, y)
                    for x in 0..<image.width {
                        let level = Int(r[x]) * 3
                        (r[x], g[x], b[x]) = (table[level], table[level + 1], table[level + 2])
                    }
                }
            }
        }
    }

    /// The 16-bit transform (planar RGB, in place) or grey table, made on first use.
    private func wideParts() -> (UnsafeMutableRawPointer?, [UInt16]) {
        let parts = wide.withLock { state -> WideParts in
            if state.transform != nil || !state.greyTable.isEmpty { return state }
            if isGrey {
                if let transform = cmsCreateTransformTHR(context, source, clcms2_type_gray_16(), target, clcms2_type_rgb_16(),
                                                         Self.intent, Self.flags) {
                    var table = [UInt16](repeating: 0, count: 3 * 65536)
                    let levels = (0...65535).map { UInt16($0) }
                    cmsDoTransform(transform, levels, &table, 65536)
                    cmsDeleteTransform(transform)
                    state.greyTable = table
                } else {
                    // The 8-bit table made from this profile; lcms refusing 16 bits is not expected.
                    state.greyTable = (0..<(3 * 65536)).map { UInt16(greyTable8[3 * (($0 / 3) >> 8) + $0 % 3]) * 257 }
                }
            } else {
                state.transform = cmsCreateTransformTHR(context, source, clcms2_type_rgb_16_planar(), target,
                                                        clcms2_type_rgb_16_planar(), Self.intent, Self.flags)
            }
            return state
        }
        return (parts.transform, parts.greyTable)
    }

    /// Opens or builds the source profile.
    private static func profile(_ colour: StillColour, context: OpaquePointer?) -> UnsafeMutableRawPointer? {
        switch colour {
        case .sRGB:
            return cmsCreate_sRGBProfileTHR(context)
        case .profile(let bytes):
            return bytes.withUnsafeBytes { cmsOpenProfileFromMemTHR(context, $0.baseAddress, UInt32($0.count)) }
        case .tagged(let primaries, let curve):
            let tone: OpaquePointer?
            switch curve {
            case .sRGB:
                // IEC 61966-2-1 as ICC parametric curve type 4, the curve lcms's own sRGB uses.
                let parameters: [Double] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
                tone = cmsBuildParametricToneCurve(context, 4, parameters)
            case .gamma(let gamma):
                tone = cmsBuildGamma(context, gamma)
            }
            guard let tone else { return nil }
            defer { cmsFreeToneCurve(tone) }
            var white = cmsCIExyY(x: primaries.white.x, y: primaries.white.y, Y: 1)
            var triple = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: primaries.red.x, y: primaries.red.y, Y: 1),
                                         Green: cmsCIExyY(x: primaries.green.x, y: primaries.green.y, Y: 1),
                                         Blue: cmsCIExyY(x: primaries.blue.x, y: primaries.blue.y, Y: 1))
            var curves: [OpaquePointer?] = [tone, tone, tone]
            return cmsCreateRGBProfileTHR(context, &white, &triple, &curves)
        }
    }

    /// Refuses a profile whose `cicp` tag says PQ or HLG, or is damaged (so cannot say).
    /// Read from the profile's bytes: Little CMS 2.14 cannot read a cicp tag (see ICCTagTable).
    private static func refuseHDR(_ colour: StillColour) throws(ColourRefusal) {
        guard case .profile(let bytes) = colour else { return }
        switch ICCTagTable(bytes).videoSignal {
        case .absent:
            return
        case .codes(let primaries, let transfer):
            _ = try StillColour.tagged(primaries: primaries, transfer: transfer)
        case .damaged:
            throw ColourRefusal(message: "carries an ICC colour profile whose cicp tag is damaged, so whether it is HDR cannot be told")
        }
    }

    /// Whether the 8-bit conversion returns every probed colour unchanged: a 16-level cube
    /// and every grey.
    private static func mapsOntoItself(transform8: UnsafeMutableRawPointer?, greyTable: [UInt8]) -> Bool {
        guard let transform8 else {
            let expected = (0..<256).flatMap { level in [UInt8(level), UInt8(level), UInt8(level)] }
            return greyTable == expected
        }
        var probe: [UInt8] = []
        let steps = stride(from: 0, through: 255, by: 17).map { UInt8($0) }
        for r in steps { for g in steps { for b in steps { probe += [r, g, b, 255] } } }
        for level in 0...255 { probe += [UInt8(level), UInt8(level), UInt8(level), 255] }
        var out = [UInt8](repeating: 0, count: probe.count)
        cmsDoTransform(transform8, probe, &out, UInt32(probe.count / 4))
        return out == probe
    }

    /// An ICC colour-space signature as its four letters.
    private static func name(of space: cmsColorSpaceSignature) -> String {
        let value = space.rawValue
        let letters = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> UInt32($0)) }
        let text = String(decoding: letters, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return letters.allSatisfy { (0x20..<0x7F).contains($0) } ? text : "unknown"
    }
}

/// The first error Little CMS reported for one conversion.
private final class LcmsLog {
    var first: String?
}
