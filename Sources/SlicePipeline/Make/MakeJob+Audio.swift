// The music bed of a make: checked with the other inputs when the request is planned (the file
// opens, has the stream, the start is inside the song), then decoded, fitted and encoded once
// per codec before rendering. Outputs that cannot carry audio are told apart by their plans.

import SliceKit
import SliceMedia
import Synchronization

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
    /// renders (the outputs wait for its packets when they first need them), which tells
    /// `audioReady` when it is done. Both halves stop within a frame once `cancellation` is
    /// set: a ten-minute bed holds up no signal.
    /// - Throws: `SlicevidError` from the file or an encoder; `interrupted` when a
    ///   signal stopped the bed.
    static func encodeAudio(_ request: MakeRequest, planned: MakePlan, cancellation: Cancellation,
                            announcement: BedAnnouncement) throws(SlicevidError) -> [AudioCodec: AudioTrack] {
        let codecs = planned.outputs.compactMap(\.audio)
        guard planned.audio != nil, !codecs.isEmpty else { return [:] }
        let prepared: (tracks: [AudioCodec: AudioTrack], job: AudioBedJob)
        do {
            prepared = try AudioTrack.prepare(request.audio, frames: planned.clip.frameCount, rate: planned.clip.frameRate, codecs: codecs,
                                              isCancelled: { cancellation.isCancelled })
        } catch {
            if cancellation.isCancelled { throw interrupted(cancellation) }
            throw SlicevidError(error)
        }
        // A SinkThread, like the encoders': the default floating-point environment, whatever
        // thread started the run.
        let thread = SinkThread(name: "slicevid.audio")
        let job = prepared.job
        // A failure is the outputs' to report, when they ask the tracks for their packets.
        thread.async {
            job.run { loudness in announcement.bedReady(.audioReady(loudness: loudness?.integrated, truePeak: loudness?.truePeak)) }
        }
        thread.stop(wait: false)
        return prepared.tracks
    }
}

/// Holds the bed's `audioReady` until the run has announced `started`: the bed is made while
/// the stills decode, and a run that then fails (a damaged still) prints only its error.
final class BedAnnouncement: Sendable {
    private let events: @Sendable (MakeEvent) -> Void
    private let state = Mutex<(started: Bool, waiting: MakeEvent?)>((false, nil))

    init(_ events: @escaping @Sendable (MakeEvent) -> Void) { self.events = events }

    /// The bed is made: told now if the run has started, else when it does.
    func bedReady(_ event: MakeEvent) {
        let now = state.withLock { state in
            if state.started { return true }
            state.waiting = event
            return false
        }
        if now { events(event) }
    }

    /// The run has announced `started`: a bed made before is told now.
    func started() {
        if let event = state.withLock({ state -> MakeEvent? in
            state.started = true
            defer { state.waiting = nil }
            return state.waiting
        }) { events(event) }
    }
}

extension MakePlan {
    /// The outputs that leave the bed out because they cannot carry audio (not those given
    /// `audio=none`, which asked for it).
    var silentOutputs: [Output.Destination] {
        var plans = outputs.makeIterator()
        return destinations.filter { destination in
            guard destination != .discard, let plan = plans.next() else { return true }
            return AudioCodec.carried(by: plan.format).isEmpty
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
