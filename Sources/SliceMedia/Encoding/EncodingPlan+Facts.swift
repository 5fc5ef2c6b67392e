// What an output will hold, predicted from its plan in `probe`'s words: the profile the encoder
// will write (x264 at ultrafast writes Constrained Baseline whatever profile it is allowed), the
// tags the file will carry, and none of a rate or a length for a still or an image sequence.

import CFFmpeg
import SliceKit

extension EncodingPlan {
    /// The facts `probe` will read from this output once it is written.
    package var facts: MediaFacts {
        let timeless = isStill || format.isSequence
        var rate: FrameRate? = timeless ? nil : frameRate
        if codec == .gif {
            // A GIF's delays are whole centiseconds: its rate is its frames over its length.
            let centiseconds = Int((duration * 100).rounded())
            rate = centiseconds > 0 ? FrameRate(frameCount * 100, centiseconds) : nil
        }
        // FFmpeg's ProRes decoder gives 4444 at 12 bits (the profile's own depth), whatever
        // depth was encoded: that is what a reader of the file gets.
        let read = codec == .prores && profile == "4444" ? (keepsAlpha ? "yuva444p12le" : "yuv444p12le") : pixelFormat
        var facts = MediaFacts(container: format.containerName, codec: codec.rawValue, profile: streamProfile,
                               pixelFormat: read, alpha: keepsAlpha, width: width, height: height, frameRate: rate,
                               frames: frameCount, duration: timeless ? nil : duration, colors: fileColors)
        // The bed lasts exactly as long as the video.
        facts.audio = audio.map { AudioStreamFacts(codec: $0.rawValue, sampleRate: AudioBed.sampleRate, channels: 2, duration: duration) }
        return facts
    }

    /// The profile the stream will carry, as `avcodec_profile_name` spells it, lower case.
    var streamProfile: String? {
        guard let descriptor = av_pix_fmt_desc_get(av_get_pix_fmt(pixelFormat)) else { return nil }
        let deep = descriptor.pointee.comp.0.depth > 8
        let chroma = (x: descriptor.pointee.log2_chroma_w, y: descriptor.pointee.log2_chroma_h)
        let is420 = chroma.x == 1 && chroma.y == 1, is444 = chroma.x == 0 && chroma.y == 0
        switch codec {
        case .h264:
            // x264 writes the lowest profile its settings fit, up to the one it is allowed.
            if quality == .lossless || is444 { return "high 4:4:4 predictive" }
            if !is420 { return "high 4:2:2" }
            if deep { return "high 10" }
            return speedOptions.contains { $0 == ("preset", "ultrafast") } ? "constrained baseline" : "high"
        case .hevc:
            return !is420 ? "rext" : deep ? "main 10" : "main"
        case .vp9:
            return "profile \((deep ? 2 : 0) + (is420 ? 0 : 1))"
        case .av1:
            return descriptor.pointee.comp.0.depth > 10 || (chroma.x == 1 && chroma.y == 0) ? "professional" : is444 ? "high" : "main"
        case .prores:
            return profile
        case .mjpeg:
            return "baseline"
        case .ffv1, .gif, .png, .webp, .raw:
            return nil
        }
    }

    /// The colour tags the file will carry, as FFmpeg names them.
    var fileColors: (primaries: String, transfer: String, space: String, range: String) {
        switch (codec, colorTags) {
        // YUV4MPEG2 has no field for them; FFmpeg reads limited range.
        case (.raw, _): ("unknown", "unknown", "unknown", "tv")
        case (_, .bt709Limited): ("bt709", "bt709", "bt709", "tv")
        case (_, .sRGB): ("bt709", "iec61966-2-1", "gbr", "pc")
        // JFIF is BT.601 at full range; lossy WebP is BT.601 at limited range.
        case (.mjpeg, _): ("unknown", "unknown", "bt470bg", "pc")
        case (.webp, _): ("unknown", "unknown", "bt470bg", "tv")
        case (.png, _): ("unknown", "unknown", "unknown", "pc")
        default: ("unknown", "unknown", "unknown", "unknown")
        }
    }
}
