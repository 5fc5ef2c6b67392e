// The music bed of a make: checked with the other inputs when the request is planned (the file
// opens, has the stream, the start is inside the song), then decoded, fitted and encoded once
// per codec before rendering. Outputs that cannot carry audio are told apart by their plans.

import SliceKit
import SliceMedia

/// The bed's file as `--dry-run` and `probe` describe it.
package struct AudioFacts: Sendable, Equatable {
    package var path: String
    package var stream: Int
    package var codecName: String
    package var sampleRate: Int
    package var channels: Int
    /// Seconds the file declares; nil when it does not say.
    package var duration: Double?
    /// The integrated loudness the bed is normalised to, if any.
    package var loudness: Double?
}

extension MakeJob {
    /// Opens the bed's file and checks the settings against it, when an output carries audio.
    /// - Throws: `SlicevidError`: `.inputMissing`, `.inputInvalid` (not audio, no such stream),
    ///   `.unavailable` (no decoder), `.usage` for a start past the song's end or two level settings.
    static func checkAudio(_ request: MakeRequest, plans: [EncodingPlan]) throws(SlicevidError) -> AudioFacts? {
        let settings = request.audio
        guard let file = settings.file else { return nil }
        if settings.loudness != nil && settings.volume != nil {
            throw SlicevidError(.usage, "\(setting: AudioOption.loudness.setting) and \(setting: AudioOption.volume.setting) both set the bed's level; give one")
        }
        guard plans.contains(where: { $0.audio != nil }) else { return nil }
        let seconds = Double(plans[0].selection.renderFrames) / plans[0].selection.renderRate.value
        guard seconds <= AudioTrack.longestClip else {
            throw SlicevidError(.usage, "\(setting: AudioOption.audio.setting): the clip lasts \(seconds.plainSeconds) s; a music bed is made for clips of up to \(Int(AudioTrack.longestClip)) s (10 minutes)")
        }
        let source: AudioSource
        do {
            source = try AudioSource(path: file, stream: settings.stream)
        } catch {
            throw SlicevidError(error)
        }
        if let duration = source.declaredDuration, settings.start >= duration {
            throw SlicevidError(.usage, "\(setting: AudioOption.audioStart.setting) \(settings.start.plainSeconds) is past the end of \(file) (\(duration.plainSeconds) s)")
        }
        return AudioFacts(path: file, stream: source.streamIndex, codecName: source.codecName, sampleRate: source.sampleRate,
                          channels: source.channels, duration: source.declaredDuration, loudness: settings.loudness)
    }

    /// The bed for every codec the outputs carry: decoded and fitted now, so a bad song is
    /// refused before rendering; levelled and encoded on a thread of its own while the clip
    /// renders (the outputs wait for its packets when they first need them).
    /// - Throws: `SlicevidError` from the file or an encoder.
    static func encodeAudio(_ request: MakeRequest, planned: MakePlan) throws(SlicevidError) -> [AudioCodec: AudioTrack] {
        let codecs = planned.outputs.compactMap(\.audio)
        guard planned.audio != nil, !codecs.isEmpty else { return [:] }
        let prepared: (tracks: [AudioCodec: AudioTrack], job: AudioBedJob)
        do {
            prepared = try AudioTrack.prepare(request.audio, frames: planned.clip.frameCount, rate: planned.clip.frameRate, codecs: codecs)
        } catch {
            throw SlicevidError(error)
        }
        // A SinkThread, like the encoders': the default floating-point environment, whatever
        // thread started the run.
        let thread = SinkThread(name: "slicevid.audio")
        let job = prepared.job
        thread.async { job.run() }
        thread.stop(wait: false)
        return prepared.tracks
    }
}

extension MakePlan {
    /// The outputs that leave the bed out because they cannot carry audio (not those given
    /// `audio=none`, which asked for it).
    var silentPaths: [String] {
        paths.filter { path in
            path == OutputTarget.discard || outputs.contains { $0.path == path && AudioCodec.carried(by: $0.format).isEmpty }
        }
    }
}

extension Double {
    /// `2`, `0.5`, `596.21`: seconds as people write them, at most three decimals.
    package var plainSeconds: String {
        let rounded = (self * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
