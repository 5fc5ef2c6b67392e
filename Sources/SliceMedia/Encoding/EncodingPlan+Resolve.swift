// The rules that turn a path, the run-wide flags and an output's own options into a plan, or
// refuse. Run-wide flags apply to each output that can use them and are skipped (with the reason
// kept) by the others; an output's own options must fit it. Every check happens here, before
// anything is decoded, rendered or created.

import Foundation
import CFFmpeg
import SliceKit

extension EncodingPlan {
    /// The default GIF size and rate: small enough for email and social previews.
    package static let defaultGIFWidth = 480
    package static let defaultGIFRate = FrameRate(15)

    /// Plans one output.
    /// - Parameters:
    ///   - path: the output path, without its options.
    ///   - format: the container its extension asks for.
    ///   - runWide: settings from flags, applied where they fit.
    ///   - own: settings given after the path, which must fit.
    ///   - clip: what the render produces.
    ///   - catalog: the encoders present.
    /// - Throws: `PlanError` (`.usage` for a combination that cannot work, `.unavailable` when no
    ///   encoder for the codec is present); the message does not repeat the path.
    package static func resolve(path: String, format: OutputFormat, runWide: EncoderSettings = EncoderSettings(),
                               own: EncoderSettings = EncoderSettings(), clip: Clip,
                               catalog: EncoderCatalog = .installed) throws(PlanError) -> EncodingPlan {
        var ignored: [OutputOption: ErrorText] = [:]
        /// How a setting is named in a message: as the run-wide setting, or as this output's own option.
        func label(_ option: OutputOption, _ value: String) -> ErrorText {
            own.has(option) ? "\(option.rawValue)=\(value)" : "\(setting: option.setting) \(value)"
        }
        /// A run-wide value this output cannot use is skipped; its own value must fit.
        func unusable(_ option: OutputOption, _ value: String, _ reason: ErrorText) throws(PlanError) {
            if own.has(option) { throw PlanError(.usage, "\(label(option, value)): \(reason)") }
            ignored[option] = reason
        }

        // Codec and encoder.
        var choice = CodecChoice(codec: format.defaultCodec)
        if let asked = own.codec ?? runWide.codec {
            if format.codecs.contains(asked.codec) {
                choice = asked
            } else {
                try unusable(.codec, asked.description,
                             "\(format.displayName) carries \(format.codecs.map(\.rawValue).joined(separator: ", "))")
            }
        }
        let codec = choice.codec
        let encoder = try pickEncoder(choice, format: format, clip: clip, catalog: catalog)

        // Transparency.
        if clip.isTransparent && !codec.carriesAlpha {
            throw PlanError(.usage, "\(codec.displayName) in \(format.displayName) cannot keep the transparent \(origin: SpecField.background.setting); "
                + "outputs that keep alpha: .webm (VP9), .mov (ProRes 4444), .mkv (FFV1), .png, .gif (on/off); or give an opaque \(setting: SpecField.background.setting)")
        }

        // Pixel format.
        var pixelFormat = codec.defaultPixelFormat(alpha: clip.isTransparent)
        if let asked = own.pixelFormat ?? runWide.pixelFormat {
            if let reason = refusal(ofPixelFormat: asked, codec: codec, encoder: encoder, alpha: clip.isTransparent, catalog: catalog) {
                try unusable(.pixFmt, asked, reason)
            } else {
                pixelFormat = asked
            }
        }
        let isYUV = EncodingPlan.isYUV(pixelFormat)

        // Quality.
        let crfRange = codec.crfRange(encoder: encoder)
        var quality: Quality
        switch codec {
        case .prores: quality = .profile
        case .mjpeg, .webp: quality = .still
        case .ffv1, .png: quality = .lossless
        case .gif: quality = .palette(Palette.capacity)
        case .raw: quality = .uncompressed
        default: quality = .crf(codec.defaultCRF(encoder: encoder) ?? 0)
        }
        let noQualityReason = qualityRefusal(codec)
        let ownQuality = own.crf != nil || own.bitrate != nil
        if let crf = ownQuality ? own.crf : runWide.crf {
            if let range = crfRange {
                guard range.contains(crf) else {
                    throw PlanError(.usage, "\(label(.crf, String(crf))) is out of range for \(codec.displayName) (\(encoder)): "
                        + "\(range.lowerBound)–\(range.upperBound), lower is better")
                }
                quality = encoder == "libx264" && crf == 0 ? .lossless : .crf(crf)
            } else {
                try unusable(.crf, String(crf), ErrorText(noQualityReason))
            }
        }
        if let bitrate = ownQuality ? own.bitrate : runWide.bitrate {
            if codec.takesBitrate {
                quality = .bitrate(bitrate)
            } else {
                try unusable(.bitrate, Quality.bitrate(bitrate).description, ErrorText(noQualityReason))
            }
        }

        // Speed.
        var speed: (options: [(String, String)], summary: String)?
        do {
            speed = try codec.speedOptions(encoder: encoder, preset: own.preset ?? runWide.preset)
        } catch {
            throw PlanError(.usage, "\(label(.encoderPreset, own.preset ?? runWide.preset ?? "")): \(error.message)")
        }
        if speed == nil, let preset = own.preset ?? runWide.preset {
            try unusable(.encoderPreset, preset, "\(codec.displayName) has no speed setting")
        }

        // Size and frames.
        var width = clip.width, height = clip.height
        var selection = FrameSelection(every: clip.frameCount, rate: clip.frameRate)
        if codec == .gif {
            // Never wider than the render: a bigger GIF only costs bytes.
            width = min(own.gifWidth ?? runWide.gifWidth ?? defaultGIFWidth, clip.width)
            height = max(1, Int((Double(width) * Double(clip.height) / Double(clip.width)).rounded()))
            selection = FrameSelection(renderFrames: clip.frameCount, renderRate: clip.frameRate,
                                       rate: own.gifFrameRate ?? runWide.gifFrameRate ?? defaultGIFRate)
        } else {
            if let width = own.gifWidth ?? runWide.gifWidth { try unusable(.gifWidth, String(width), "applies to .gif outputs only") }
            if let rate = own.gifFrameRate ?? runWide.gifFrameRate { try unusable(.gifFPS, rate.description, "applies to .gif outputs only") }
        }
        var sheet: Sheet?
        if let grid = own.sheet ?? runWide.sheet {
            if format.isStill {
                sheet = grid
                (width, height) = grid.size(width: clip.width, height: clip.height)
            } else {
                try unusable(.sheet, grid.description, "applies to .png, .jpg and .webp outputs only")
            }
        }
        if format.isStill, sheet != nil {
            // The cells show frames evenly spaced; one picture, of no length.
            if let seconds = own.posterTime ?? runWide.posterTime {
                try unusable(.posterAt, seconds.secondsText, "a storyboard shows frames evenly spaced over the clip, not one")
            }
            selection = FrameSelection(single: clip.frameCount - 1, renderFrames: clip.frameCount, renderRate: clip.frameRate)
        } else if format.isStill {
            var index = clip.frameCount - 1
            if let seconds = own.posterTime ?? runWide.posterTime {
                let end = Double(clip.frameCount - 1) / clip.frameRate.value
                guard seconds <= end + 1e-9 else {
                    throw PlanError(.usage, "\(label(.posterAt, seconds.secondsText)) is past the end of the clip (\(end.secondsText) s)")
                }
                index = Int((seconds * clip.frameRate.value).rounded())
            }
            selection = FrameSelection(single: index, renderFrames: clip.frameCount, renderRate: clip.frameRate)
        } else if let seconds = own.posterTime ?? runWide.posterTime {
            try unusable(.posterAt, seconds.secondsText, "applies to .png, .jpg and .webp poster outputs only")
        }

        // Codec and muxer options.
        var codecOptions = speed?.options ?? []
        var profile: String?
        switch quality {
        case .crf(let crf): codecOptions.append(("crf", String(crf)))
        case .lossless where codec == .h264: codecOptions.append(("crf", "0"))
        case .bitrate(let bits): codecOptions.append(("b", String(bits)))
        default: break
        }
        switch codec {
        case .h264:
            profile = h264Profile(pixelFormat: pixelFormat, lossless: quality == .lossless)
            codecOptions.append(("profile", profile!))
            if encoder == "libx264" {
                // x264's SIMD macroblock-tree step reads past its buffers at some sizes (160x90)
                // and picks its approximations by CPU: the heap's leftovers and the machine
                // changed the bytes. Its CPU-independent path for that step is exact.
                codecOptions.append(("x264-params", "cpu-independent=1"))
            }
        case .vp9:
            // Constant quality in libvpx needs a zero bitrate; rows in parallel use every core.
            if case .crf = quality { codecOptions.append(("b", "0")) }
            codecOptions.append(("row-mt", "1"))
        case .av1 where encoder == "libaom-av1":
            if case .crf = quality { codecOptions.append(("b", "0")) }
            codecOptions.append(("row-mt", "1"))
        case .prores:
            profile = av_pix_fmt_desc_get(av_get_pix_fmt(pixelFormat))?.pointee.log2_chroma_w == 0 ? "4444" : "hq"
            // apl0 marks the file as Apple's own ProRes, which some editors insist on.
            codecOptions += [("profile", profile!), ("vendor", "apl0")]
        case .ffv1:
            // Version 3 with range coding, large contexts, slice CRCs and every frame a keyframe:
            // the archival settings, and frame-exact cutting in editors.
            codecOptions += [("level", "3"), ("coder", "1"), ("context", "1"), ("slicecrc", "1"), ("g", "1")]
        default:
            break
        }
        var muxerOptions: [(String, String)] = []
        if format.takesFaststart { muxerOptions.append(("movflags", "+faststart")) }
        if format == .pngSequence { muxerOptions.append(("start_number", "0")) }
        if format == .poster { muxerOptions.append(("update", "1")) }
        if codec == .gif {
            // Loop forever, and show the last frame (the destination) as long as any other.
            var rate = clip.frameRate
            if case .rate(let gifRate) = selection.rule { rate = gifRate }
            muxerOptions += [("loop", "0"), ("final_delay", String(centiseconds(perFrameOf: rate)))]
        }

        let keepsAlpha = clip.isTransparent
        var layout = PixelLayout.rendering(pixelFormat: pixelFormat, alpha: codec == .gif ? keepsAlpha : nil) ?? .yuv420p
        // JPEG and WebP are written from RGB; a storyboard's cells are scaled down, so chroma
        // at full resolution would buy nothing and make the whole render RGB.
        if codec == .mjpeg || codec == .webp { layout = .gbrp }
        if sheet != nil { layout = keepsAlpha ? .yuva420p : .yuv420p }
        return EncodingPlan(
            path: path, format: format, codec: codec, encoder: encoder, pixelFormat: pixelFormat,
            width: width, height: height, renderWidth: clip.width, renderHeight: clip.height, selection: selection, quality: quality, speed: speed?.summary, speedOptions: speed?.options ?? [],
            profile: profile, keepsAlpha: keepsAlpha,
            colorTags: codec == .mjpeg || codec == .webp ? .none : isYUV ? .bt709Limited : (codec == .ffv1 ? .sRGB : .none),
            renderLayout: layout, ignored: ignored, codecOptions: codecOptions, muxerOptions: muxerOptions,
            codecTag: codec == .hevc && format != .mkv ? "hvc1" : nil,
            ticksPerSecond: codec == .gif ? 100 : nil, sheet: sheet)
    }

    /// The encoder for `choice`: the one it names, or the first of the codec's that is present
    /// and takes the clip's size.
    private static func pickEncoder(_ choice: CodecChoice, format: OutputFormat, clip: Clip,
                                    catalog: EncoderCatalog) throws(PlanError) -> String {
        let wanted = choice.encoder.map { [$0] } ?? choice.codec.encoders
        let fitting = wanted.filter { VideoCodec.sizeRefusal(encoder: $0, width: clip.width, height: clip.height) == nil }
        if let present = fitting.first(where: catalog.has) { return present }
        if let named = choice.encoder, let reason = VideoCodec.sizeRefusal(encoder: named, width: clip.width, height: clip.height) {
            throw PlanError(.usage, "\(reason); the clip is \(clip.width)x\(clip.height)")
        }
        let alternatives = format.codecs.flatMap { codec in
            codec.encoders.filter { catalog.has($0) && !wanted.contains($0) }.map { "\(codec.rawValue) (\($0))" }
        }
        let needs = wanted.count == 1 ? wanted[0] : wanted.dropLast().joined(separator: ", ") + " or " + wanted.last!
        throw PlanError(.unavailable, "\(choice.codec.displayName) needs \(needs), which this libavcodec lacks; "
            + (alternatives.isEmpty ? "it has no other encoder for \(format.displayName)"
                                    : "\(format.displayName) encoders present: \(alternatives.joined(separator: ", "))"))
    }

    /// Why `codec` has no crf or bitrate.
    private static func qualityRefusal(_ codec: VideoCodec) -> String {
        switch codec {
        case .prores: "ProRes quality is set by its profile (422 HQ, or 4444 with alpha)"
        case .ffv1: "FFV1 is lossless; it has no quality setting"
        case .png: "PNG is lossless; it has no quality setting"
        case .gif: "a GIF is a 256-colour palette with no quality setting, and cannot be lossless; for a lossless master use .mkv (FFV1) or a PNG sequence"
        case .mjpeg, .webp: "\(codec.displayName) stills are written at a fixed high quality"
        case .raw: "y4m frames are uncompressed"
        default: "\(codec.displayName) has no quality setting"
        }
    }

    /// Why `name` cannot be this output's pixel format, or nil when it can.
    private static func refusal(ofPixelFormat name: String, codec: VideoCodec, encoder: String, alpha: Bool,
                                catalog: EncoderCatalog) -> ErrorText? {
        let accepted = (catalog.pixelFormats(of: encoder) ?? codec.fallbackPixelFormats).filter { format in
            // Full-range "J" formats contradict the limited-range tags; palettes are GIF's alone.
            !format.hasPrefix("yuvj") && (format == "pal8") == (codec == .gif)
        }
        if !accepted.contains(name) {
            let known = av_get_pix_fmt(name) != AV_PIX_FMT_NONE
            return "\(known ? "\(codec.displayName) (\(encoder)) does not take it" : "not a pixel format FFmpeg knows"); accepted: \(accepted.joined(separator: ", "))"
        }
        if alpha && codec != .gif && !hasAlpha(name) {
            let withAlpha = accepted.filter(hasAlpha)
            return "it has no alpha, and the \(setting: SpecField.background.setting) is transparent; with alpha: \(withAlpha.joined(separator: ", "))"
        }
        return nil
    }

    /// The x264 profile for a pixel format: High for 8-bit 4:2:0 (what phones and browsers
    /// play), High 10 / 4:2:2 / 4:4:4 only when the format needs them; lossless needs High 4:4:4
    /// Predictive whatever the format.
    private static func h264Profile(pixelFormat: String, lossless: Bool) -> String {
        if lossless { return "high444" }
        guard let descriptor = av_pix_fmt_desc_get(av_get_pix_fmt(pixelFormat)) else { return "high" }
        let deep = descriptor.pointee.comp.0.depth > 8
        if descriptor.pointee.nb_components >= 3 && descriptor.pointee.log2_chroma_h == 0 {
            return descriptor.pointee.log2_chroma_w == 0 ? "high444" : "high422"
        }
        return deep ? "high10" : "high"
    }

    static func isYUV(_ name: String) -> Bool {
        guard let descriptor = av_pix_fmt_desc_get(av_get_pix_fmt(name)) else { return false }
        return descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL) == 0
    }

    static func hasAlpha(_ name: String) -> Bool {
        guard let descriptor = av_pix_fmt_desc_get(av_get_pix_fmt(name)) else { return false }
        return descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0
    }
}

extension Double {
    /// `2`, `0.5`, `2.03333`: seconds as people write them.
    var secondsText: String { String(format: "%g", self) }
}
