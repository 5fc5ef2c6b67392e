// Which outputs carry the music bed, and in which codec: AAC in .mp4/.mov, Opus in .webm, FLAC
// (or Opus) in .mkv. Stills, GIFs, sequences and y4m have no audio and are said to ignore it.

extension EncodingPlan {
    /// The plan with the bed's codec chosen, when the run has a bed and the output takes audio.
    /// - Parameters:
    ///   - own, runWide: the output's own settings and the run's (`audio-codec`, `audio=none`).
    /// - Throws: `PlanError(.usage)` for an `audio-codec` the container does not carry, given
    ///   to this output itself.
    package func carryingAudio(own: EncoderSettings, runWide: EncoderSettings) throws(PlanError) -> EncodingPlan {
        var plan = self
        let carried = AudioCodec.carried(by: format)
        let asked = own.audioCodec ?? runWide.audioCodec
        if carried.isEmpty {
            plan.ignored[.audioCodec] = "\(format.displayName) has no audio"
            if own.audioCodec != nil { throw PlanError(.usage, "audio-codec=\(asked!.rawValue): \(format.displayName) has no audio") }
            return plan
        }
        if own.silent || runWide.silent { return plan }
        var codec = carried[0]
        if let asked {
            if carried.contains(asked) {
                codec = asked
            } else if own.audioCodec != nil {
                throw PlanError(.usage, "audio-codec=\(asked.rawValue): \(format.displayName) carries \(carried.map(\.rawValue).joined(separator: ", "))")
            } else {
                plan.ignored[.audioCodec] = "\(format.displayName) carries \(carried.map(\.rawValue).joined(separator: ", "))"
            }
        }
        plan.audio = codec
        // Timed in samples, the audio's edit list is exact; in the default 1/1000 s it comes
        // out 16 samples short of the video.
        if format == .mp4 || format == .mov { plan.muxerOptions.append(("movie_timescale", String(AudioBed.sampleRate))) }
        return plan
    }

    /// How the bed is encoded, beyond what `probe` reads back, for `--dry-run` and the fingerprint.
    package var audioSettings: [(key: String, value: String)] {
        guard let audio else { return [] }
        return [("audio_encoder", audio.encoder), ("audio_bitrate", audio.bitrate.map { Quality.bitrate($0).description } ?? "lossless")]
    }
}
