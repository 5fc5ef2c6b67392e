// The render loop: order, bounded memory, buffer reuse, errors and cancellation.

import Foundation
import SliceKit
import Testing
@testable import SlicePipeline

@Suite(.timeLimit(.minutes(10))) struct RenderLoopTests {
    private func pool(_ capacity: Int) -> FramePool {
        FramePool(capacity: capacity, width: 8, height: 4, layout: .yuv420p)
    }

    /// Fills a frame with a value derived from its index, after an irregular delay so frames
    /// finish out of order.
    private static func render(_ index: Int, _ frame: PlanarImage) {
        usleep(useconds_t((index * 7919) % 5) * 300)
        for plane in frame.planes {
            for y in 0..<plane.height { plane.row(y).update(repeating: UInt8(truncatingIfNeeded: index), count: plane.width) }
        }
    }

    @Test func everyFrameReachesEverySinkInOrder() throws {
        let sinks = [RecordingSink(), RecordingSink(delay: 200)]
        let stats = try RenderLoop(frameCount: 120, jobs: 4, window: 6)
            .run(pool: pool(6), sinks: sinks, cancellation: Cancellation(), render: Self.render)
        #expect(stats.frames == 120)
        for sink in sinks {
            #expect(sink.indices == Array(0..<120))
            #expect(sink.finished)
        }
        #expect(sinks[0].checksums == sinks[1].checksums)
    }

    @Test func framesAliveNeverExceedTheWindow() throws {
        let counter = AliveCounter()
        let window = 3
        let stats = try RenderLoop(frameCount: 200, jobs: 4, window: window)
            .run(pool: pool(window), sinks: [CountingSink(counter: counter, delay: 300)], cancellation: Cancellation(),
                 render: { index, frame in
                     counter.enter()
                     Self.render(index, frame)
                 })
        #expect(stats.frames == 200)
        #expect(stats.peakFramesInFlight <= window)
        #expect(counter.peakAlive <= window)
        #expect(counter.peakAlive >= 1)
    }

    @Test func buffersAreRecycledNotAllocatedPerFrame() throws {
        let sink = RecordingSink()
        _ = try RenderLoop(frameCount: 300, jobs: 2, window: 4)
            .run(pool: pool(4), sinks: [sink], cancellation: Cancellation(), render: Self.render)
        #expect(sink.indices.count == 300)
        #expect(sink.buffers.count <= 4)
    }

    @Test func aSinkErrorStopsTheRunWithoutHanging() {
        let failing = RecordingSink(failAt: 17)
        let healthy = RecordingSink()
        let pool = pool(4)
        #expect(throws: SlicevidError.self) {
            _ = try RenderLoop(frameCount: 10_000, jobs: 2, window: 4)
                .run(pool: pool, sinks: [failing, healthy], cancellation: Cancellation(), render: Self.render)
        }
        #expect(!failing.finished && !healthy.finished)
        #expect(healthy.indices.count < 10_000)
        #expect(pool.currentlyInUse == 0)
    }

    @Test func cancellationStopsTheRun() {
        let cancellation = Cancellation()
        let sink = RecordingSink()
        #expect(throws: RenderCancelled.self) {
            _ = try RenderLoop(frameCount: 100_000, jobs: 2, window: 4)
                .run(pool: pool(4), sinks: [sink], cancellation: cancellation, render: { index, frame in
                    if index == 50 { cancellation.cancel(signal: SIGTERM) }
                    Self.render(index, frame)
                })
        }
        #expect(cancellation.signal == SIGTERM)
        #expect(!sink.finished)
        #expect(sink.indices.count < 100_000)
        #expect(sink.indices == Array(0..<sink.indices.count))
    }

    @Test func sharedStillsReachTheSinksAndBuffersStillComeBack() throws {
        let still = PlanarImage(width: 8, height: 4, layout: .yuv420p)
        still.fill(RGBAColor(red: 10, green: 200, blue: 30))
        let drawn = PlanarImage(width: 8, height: 4, layout: .yuv420p)
        Self.render(1, drawn)
        let sink = RecordingSink(delay: 100)
        let pool = pool(3)
        let stats = try RenderLoop(frameCount: 60, jobs: 2, window: 3)
            .run(pool: pool, sinks: [sink], cancellation: Cancellation(), frame: { index, buffer in
                if index.isMultiple(of: 2) { return still }
                Self.render(1, buffer)
                return buffer
            })
        #expect(stats.frames == 60 && stats.peakFramesInFlight <= 3)
        #expect(sink.indices == Array(0..<60))
        #expect(sink.checksums == (0..<60).map { $0.isMultiple(of: 2) ? still.checksum : drawn.checksum })
        #expect(pool.currentlyInUse == 0)
    }

    @Test func aSignalWinsOverTheErrorsItProvokes() {
        // SIGTERM, and with it a write error (the reader closed the pipe it was told to
        // close): the run reports the signal, not the write error. The sink does both while
        // it writes frame 5, so the error is recorded whatever the timing.
        let cancellation = Cancellation()
        let sink = SignallingSink(cancellation: cancellation, failAt: 5)
        #expect(throws: RenderCancelled.self) {
            _ = try RenderLoop(frameCount: 12, jobs: 2, window: 4)
                .run(pool: pool(4), sinks: [sink], cancellation: cancellation, render: Self.render)
        }
        #expect(!sink.finished, "a cancelled run does not flush its sinks")
    }

    @Test func aSignalDuringTheFlushDiscardsTheRun() {
        let cancellation = Cancellation()
        let sink = SignallingSink(cancellation: cancellation)
        #expect(throws: RenderCancelled.self) {
            _ = try RenderLoop(frameCount: 12, jobs: 2, window: 4)
                .run(pool: pool(4), sinks: [sink], cancellation: cancellation, render: Self.render)
        }
        #expect(sink.finished)
    }

    @Test func framesAreIdenticalWhateverTheNumberOfJobs() throws {
        var spec = TransitionSpec()
        spec.width = 96
        spec.height = 54
        spec.strips = 12
        spec.hold = 0.1
        spec.duration = 0.5
        spec.frameRate = FrameRate(30)
        let plan = FramePlan(spec: spec)
        let source = PlanarImage(width: 96, height: 54, layout: .yuv420p)
        let destination = PlanarImage(width: 96, height: 54, layout: .yuv420p)
        source.fill(RGBAColor(red: 200, green: 40, blue: 10))
        destination.fill(RGBAColor(red: 10, green: 40, blue: 200))
        let compositor = Compositor(plan: plan, source: source, destination: destination)
        var results: [[UInt64]] = []
        for jobs in [1, 2, 5] {
            let sink = RecordingSink()
            _ = try RenderLoop(frameCount: plan.frameCount, jobs: jobs)
                .run(pool: FramePool(capacity: RenderLoop.defaultWindow(jobs: jobs), width: 96, height: 54, layout: .yuv420p),
                     sinks: [sink], cancellation: Cancellation(), render: { compositor.render(frame: $0, into: $1) })
            results.append(sink.checksums)
        }
        #expect(results[0].count == plan.frameCount)
        #expect(results[0] == results[1])
        #expect(results[0] == results[2])
        #expect(Set(results[0]).count > 3, "a transition shows more than a few distinct frames")
    }
}
