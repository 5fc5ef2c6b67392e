// A stop asked for while an encoder is flushed ends the flush between packets: x264's lookahead
// holds many frames, and a signal must not wait for all of them to be written.

import Foundation
import SliceKit
import SliceMedia
import Synchronization
import Testing

@Suite struct VideoWriterStopTests {
    @Test func aStopDuringTheFlushEndsItBetweenPackets() throws {
        try withTemporaryDirectory { dir in
            // The default preset's lookahead keeps every frame of a short clip until the flush.
            let writer = try VideoWriter(path: dir + "/clip.mp4", outputFormat: .mp4, width: 64, height: 36, frameRate: FrameRate(30),
                                         inputLayout: .yuv420p, settings: EncoderSettings(crf: 23))
            for index in 0..<30 { try writer.write(Fixture.movingBar(width: 64, height: 36, index: index).planar(.yuv420p)) }
            let asked = Atomic<Int>(0)
            // The stop arrives once the flush has written its first packet.
            writer.stopRequested = { asked.add(1, ordering: .relaxed).newValue > 1 }
            #expect(throws: MediaError.self) { try writer.finish() }
            #expect(asked.load(ordering: .relaxed) == 2)
        }
    }
}
