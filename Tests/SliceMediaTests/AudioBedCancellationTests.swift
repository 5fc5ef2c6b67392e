// A long bed stops as soon as it is asked to (issue 23, item 13): SIGTERM took 3 s while a
// 10-minute bed was prepared, because nothing in its decode, filter graphs, loudness passes or
// encode asked whether the run was stopping. Each is polled now, every frame; these tests count
// the polls and stop the bed at a chosen one, so they depend on no clock.

import Foundation
import SliceKit
@testable import SliceMedia
import Synchronization
import Testing

@Suite("Stopping the music bed")
struct AudioBedCancellationTests {
    /// A cancellation flag that counts how often it is asked, and says yes from the `stopAt`th time on.
    final class Flag: Sendable {
        let asked = Atomic<Int>(0)
        let stopAt: Int
        init(stopAt: Int = .max) { self.stopAt = stopAt }
        @Sendable func isCancelled() -> Bool { asked.add(1, ordering: .relaxed).newValue >= stopAt }
        var count: Int { asked.load(ordering: .relaxed) }
    }

    /// A `seconds`-long song, looped with `loop` (to the clip's length) and levelled to -16 LUFS.
    static func song(_ dir: String, seconds: Double, loop: Bool = false) throws -> AudioSettings {
        let path = dir + "/song.wav"
        try AudioFixture.write(path, rate: 48_000, seconds: seconds) { i, c in 0.2 * sin(Float(i) * (c == 0 ? 0.02 : 0.03)) }
        var settings = AudioSettings(file: path)
        settings.loop = loop
        settings.loudness = -16
        return settings
    }

    /// 60 s of clip at 30 fps.
    static let frames = 1_801

    @Test("decoding and fitting a long song stop at the first poll that says stop, and poll at least every 2048 samples")
    func preparationStops() throws {
        try withTemporaryDirectory { dir in
            let settings = try Self.song(dir, seconds: 60)
            let counting = Flag()
            _ = try AudioTrack.prepare(settings, frames: Self.frames, rate: FrameRate(30), codecs: [.aac], isCancelled: counting.isCancelled)
            #expect(counting.count >= 60 * 48_000 / 2048, "polled \(counting.count) times for 60 s of song")
            let stopping = Flag(stopAt: counting.count / 2)
            let error = #expect(throws: MediaError.self) {
                _ = try AudioTrack.prepare(settings, frames: Self.frames, rate: FrameRate(30), codecs: [.aac], isCancelled: stopping.isCancelled)
            }
            #expect(error?.message.contains("the run was stopped") == true, "\(String(describing: error))")
            #expect(stopping.count == counting.count / 2, "asked \(stopping.count) times; it should stop at the first yes")
        }
    }

    @Test("a short song looped into a long bed polls while the loop is made too")
    func loopingStops() throws {
        try withTemporaryDirectory { dir in
            let settings = try Self.song(dir, seconds: 1, loop: true)
            let counting = Flag()
            _ = try AudioTrack.prepare(settings, frames: Self.frames, rate: FrameRate(30), codecs: [.aac], isCancelled: counting.isCancelled)
            // One second of song is ~50 polls of decoding; the other 59 s come out of the loop.
            #expect(counting.count >= 60 * 48_000 / 2048, "polled \(counting.count) times for a 60 s bed")
        }
    }

    @Test("levelling and encoding stop at the first poll that says stop, and fail the tracks")
    func jobStops() throws {
        try withTemporaryDirectory { dir in
            let settings = try Self.song(dir, seconds: 60)
            let counting = Flag()
            let (tracks, job) = try AudioTrack.prepare(settings, frames: Self.frames, rate: FrameRate(30), codecs: [.aac, .opus],
                                                       isCancelled: counting.isCancelled)
            let afterPreparing = counting.count
            var measured: Loudness?
            job.run { measured = $0 }
            #expect(measured != nil)
            // At least two loudness passes and two encodes, each over 60 s of 48 kHz audio.
            let jobPolls = counting.count - afterPreparing
            #expect(jobPolls >= 4 * 60 * 48_000 / 2048, "the job polled \(jobPolls) times")
            #expect(try tracks[.aac]!.packets().count > 2_000)

            let stopping = Flag(stopAt: afterPreparing + jobPolls / 2)
            let (stopped, stoppedJob) = try AudioTrack.prepare(settings, frames: Self.frames, rate: FrameRate(30), codecs: [.aac, .opus],
                                                               isCancelled: stopping.isCancelled)
            var told = false
            stoppedJob.run { _ in told = true }
            #expect(!told, "a stopped job said its bed was ready")
            #expect(stopping.count <= afterPreparing + jobPolls / 2 + 1, "asked \(stopping.count - afterPreparing) times in the job")
            for codec in [AudioCodec.aac, .opus] {
                let error = #expect(throws: MediaError.self, "\(codec)") { _ = try stopped[codec]!.packets() }
                #expect(error?.message.contains("the run was stopped") == true, "\(String(describing: error))")
            }
        }
    }
}
