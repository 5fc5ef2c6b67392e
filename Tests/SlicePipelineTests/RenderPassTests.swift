// A render in several layouts: one pass per layout, each frame one permit of the first pass's
// window. A later pass draws only the frames its sinks use, its buffers come back with the
// frame's, and an error in any pass stops them all.

import Foundation
import SliceKit
import Synchronization
import Testing
@testable import SlicePipeline

@Suite(.timeLimit(.minutes(10))) struct RenderPassTests {
    /// A pass in `layout` whose frames are filled with their index (after an irregular delay, so
    /// they finish out of order), telling `onDraw` each frame it draws.
    private func pass(_ layout: PixelLayout, window: Int, sinks: [RecordingSink], first: Bool,
                      onDraw: @escaping @Sendable (Int) -> Void = { _ in }) -> RenderPass {
        let pool = FramePool(capacity: window, width: 8, height: 4, layout: layout, allocation: first ? .upFront : .onDemand)
        return RenderPass(pool: pool, runners: sinks.enumerated().map { SinkRunner($1, index: $0) }, frame: { index, buffer in
            onDraw(index)
            usleep(useconds_t((index * 7919) % 5) * 200)
            for plane in buffer.planes {
                for y in 0..<plane.height { plane.row(y).update(repeating: UInt8(truncatingIfNeeded: index), count: plane.width) }
            }
            return buffer
        })
    }

    @Test func aLaterPassDrawsOnlyTheFramesItsSinksUseInItsOwnLayout() throws {
        let video = RecordingSink(), poster = RecordingSink(wanted: FramesWanted { $0 == 37 })
        let drawn = Mutex<[Int]>([])
        let passes = [pass(.yuv420p, window: 4, sinks: [video], first: true),
                      pass(.gbrp, window: 4, sinks: [poster], first: false, onDraw: { index in drawn.withLock { $0.append(index) } })]
        let stats = try RenderLoop(frameCount: 120, jobs: 3, window: 4).run(passes: passes, cancellation: Cancellation())
        #expect(stats.frames == 120 && stats.peakFramesInFlight <= 4)
        #expect(video.indices == Array(0..<120) && video.finished)
        #expect(poster.indices == [37] && poster.finished)
        #expect(drawn.withLock { $0 } == [37])
        // One buffer of the poster's layout was ever needed, and every buffer came back.
        #expect(passes[1].pool.peakInUse == 1)
        #expect(passes.allSatisfy { $0.pool.currentlyInUse == 0 })
    }

    @Test func passesThatUseEveryFrameStayWithinTheWindowAndNeverWaitOnEachOther() throws {
        // The later pass's sink is slow: its frames hold the first pass's permits, so neither
        // pass has more than the window out, and its pool never runs dry.
        let fast = RecordingSink(), slow = RecordingSink(delay: 300)
        let passes = [pass(.yuv420p, window: 3, sinks: [fast], first: true),
                      pass(.gbrap, window: 3, sinks: [slow], first: false)]
        let stats = try RenderLoop(frameCount: 150, jobs: 4, window: 3).run(passes: passes, cancellation: Cancellation())
        #expect(stats.frames == 150)
        #expect(fast.indices == Array(0..<150) && slow.indices == Array(0..<150))
        #expect(fast.checksums.count == 150 && slow.buffers.count <= 3)
        #expect(passes.allSatisfy { $0.pool.peakInUse <= 3 && $0.pool.currentlyInUse == 0 })
    }

    @Test func anErrorInALaterPassStopsEveryPass() {
        let video = RecordingSink(), failing = RecordingSink(failAt: 23)
        let passes = [pass(.yuv420p, window: 4, sinks: [video], first: true),
                      pass(.gbrp, window: 4, sinks: [failing], first: false)]
        #expect(throws: SlicevidError.self) {
            _ = try RenderLoop(frameCount: 10_000, jobs: 2, window: 4).run(passes: passes, cancellation: Cancellation())
        }
        #expect(!video.finished && !failing.finished)
        #expect(video.indices.count < 10_000)
    }

    @Test func aSignalWhileALaterPassDrawsStopsEveryPass() {
        let cancellation = Cancellation()
        let video = RecordingSink(), other = RecordingSink(wanted: FramesWanted { $0.isMultiple(of: 3) })
        let drawing = pass(.yuv444p16, window: 4, sinks: [other], first: false)
        let signalling = RenderPass(pool: drawing.pool, runners: drawing.runners, frame: { index, buffer in
            if index == 42 { cancellation.cancel(signal: SIGTERM) }
            return drawing.frame(index, buffer)
        })
        #expect(throws: RenderCancelled.self) {
            _ = try RenderLoop(frameCount: 100_000, jobs: 2, window: 4)
                .run(passes: [pass(.yuv420p, window: 4, sinks: [video], first: true), signalling], cancellation: cancellation)
        }
        #expect(cancellation.signal == SIGTERM)
        #expect(!video.finished && !other.finished)
        #expect(video.indices.count < 100_000 && video.indices == Array(0..<video.indices.count))
        #expect(other.indices.allSatisfy { $0.isMultiple(of: 3) } && other.indices == other.indices.sorted())
    }
}
