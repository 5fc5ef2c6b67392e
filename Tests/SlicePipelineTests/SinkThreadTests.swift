// Encoders run on threads of their own, which start from the default floating-point
// environment whatever thread made them: libx264 writes another stream in another rounding
// mode, and a new thread inherits its creator's.

import Foundation
import Glibc
import ScratchFixtures
import SliceKit
import SliceMedia
import Synchronization
import Testing
@testable import SlicePipeline

@Suite struct SinkThreadTests {
    /// Runs `body` on a fresh thread whose rounding mode is upward, and waits for it.
    private func onUpwardRoundingThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        let result = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            fesetround(FE_UPWARD)
            result.withLock { $0 = Result { try body() } }
            fesetround(FE_TONEAREST)
            done.signal()
        }
        thread.start()
        done.wait()
        return try result.withLock { $0! }.get()
    }

    @Test func aSinkThreadRoundsToNearestWhateverItsCreatorDoes() throws {
        let modes = try onUpwardRoundingThread {
            let creator = fegetround()
            let sink = SinkThread(name: "test")
            defer { sink.stop() }
            return (creator, sink.sync { fegetround() })
        }
        #expect(modes.0 == FE_UPWARD, "the test's own thread rounds upward")
        #expect(modes.1 == FE_TONEAREST)
    }

    /// Encodes the same 8 frames with libx264 on a sink thread made by the calling thread.
    private static func encode(to path: String) throws -> Data {
        let frames = (0..<8).map { index in
            RGBAImage(width: 64, height: 36, pixels: (0..<(64 * 36 * 4)).map { UInt8(truncatingIfNeeded: $0 * 7 + index * 29 + ($0 / 256) * 3) })
                .planar(.yuv420p)
        }
        let sink = SinkThread(name: "encoder")
        defer { sink.stop() }
        try sink.sync { () throws(MediaError) in
            let writer = try VideoWriter(path: path, outputFormat: .mp4, width: 64, height: 36, frameRate: FrameRate(10),
                                         inputLayout: .yuv420p, settings: EncoderSettings(crf: 23, preset: "ultrafast"))
            for frame in frames { try writer.write(frame) }
            try writer.finish()
        }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test func x264WritesTheSameBytesWhicheverThreadStartedItsEncoder() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let normal = try Self.encode(to: scratch.path + "/normal.mp4")
        let path = scratch.path + "/upward.mp4"
        let upward = try onUpwardRoundingThread { try Self.encode(to: path) }
        #expect(!normal.isEmpty)
        #expect(normal == upward, "x264 opened from a thread rounding upward wrote another stream")
    }
}
