// The concurrent heart of a render: workers take a pool buffer and the next frame index,
// render, and submit to the ordering buffer, which feeds every sink in order. A buffer's
// permit comes back only after the last sink has consumed it, so memory is bounded by the
// window whatever the video length, and a slow encoder holds back rendering.

import Dispatch
import SliceKit
import Synchronization

/// What a finished render measured.
package struct RenderStats: Sendable {
    /// Frames rendered and delivered to the sinks.
    package var frames: Int
    /// The most frame buffers alive at once (≤ the window).
    package var peakFramesInFlight: Int
    /// The window (pool size).
    package var window: Int
    /// The music bed's integrated loudness in LUFS as it was encoded, when it was levelled.
    package var loudness: Double?
}

/// Renders frames concurrently and delivers them, in order, to sinks.
package struct RenderLoop: Sendable {
    package let frameCount: Int
    package let jobs: Int
    package let window: Int

    /// - Parameters:
    ///   - frameCount: frames to render, indices 0..<frameCount.
    ///   - jobs: render threads, ≥ 1.
    ///   - window: frame buffers, ≥ 1; defaults to enough to keep `jobs` threads and the
    ///     sinks busy.
    package init(frameCount: Int, jobs: Int, window: Int? = nil) {
        precondition(frameCount >= 0 && jobs >= 1, "frame count and jobs must be valid")
        self.frameCount = frameCount
        self.jobs = jobs
        self.window = max(1, window ?? (2 * jobs + 2))
    }

    /// The default window for `jobs` render threads.
    package static func defaultWindow(jobs: Int) -> Int { 2 * jobs + 2 }

    /// Renders and delivers every frame, or stops early on the first error or cancellation.
    /// - Parameters:
    ///   - pool: where frame buffers come from; its capacity is the window.
    ///   - sinks: consumers; each gets every frame in order.
    ///   - cancellation: polled between frames; set by signals.
    ///   - render: draws frame `index` into the buffer; must be safe to call concurrently.
    ///   - progress: called with the number of frames every sink has consumed.
    /// - Throws: the first sink error, or `RenderCancelled` when cancelled. Sinks are
    ///   finished only when every frame was delivered without error.
    package func run(pool: FramePool, sinks: [any FrameSink], cancellation: Cancellation,
                    render: @escaping @Sendable (Int, PlanarImage) -> Void,
                    progress: (@Sendable (Int) -> Void)? = nil, finishing: (() -> Void)? = nil) throws -> RenderStats {
        try run(pool: pool, sinks: sinks, cancellation: cancellation,
                frame: { index, buffer in render(index, buffer); return buffer }, progress: progress, finishing: finishing)
    }

    /// Like `run(pool:sinks:cancellation:render:progress:)`, but `frame` may hand the sinks a
    /// picture other than the buffer — an unchanged still for a hold frame, shared rather than
    /// copied. The buffer still holds the frame's place in the window until every sink is done.
    /// - Parameters:
    ///   - frame: returns frame `index`: drawn into the buffer, or a picture that stays
    ///     unchanged for the whole run; must be safe to call concurrently.
    ///   - finishing: called once every frame is with the sinks, as they start to flush.
    package func run(pool: FramePool, sinks: [any FrameSink], cancellation: Cancellation,
                    frame: @escaping @Sendable (Int, PlanarImage) -> PlanarImage,
                    progress: (@Sendable (Int) -> Void)? = nil, finishing: (() -> Void)? = nil) throws -> RenderStats {
        try run(pool: pool, runners: sinks.enumerated().map { SinkRunner($1, index: $0) }, cancellation: cancellation,
                frame: frame, progress: progress, finishing: finishing)
    }

    /// Like `run(pool:sinks:cancellation:frame:progress:finishing:)`, with each sink already
    /// running on its own thread (an encoder opened there).
    func run(pool: FramePool, runners: [SinkRunner], cancellation: Cancellation,
             frame: @escaping @Sendable (Int, PlanarImage) -> PlanarImage,
             progress: (@Sendable (Int) -> Void)? = nil, finishing: (() -> Void)? = nil) throws -> RenderStats {
        try run(passes: [RenderPass(pool: pool, runners: runners, frame: frame)], cancellation: cancellation,
                progress: progress, finishing: finishing)
    }

    /// Renders every frame in each of `passes`' layouts and delivers each to that pass's sinks,
    /// in order. A frame is one permit of the first pass's pool, whatever the number of passes:
    /// a worker draws it in the first pass's layout and then in each later pass's whose sinks use
    /// it, and its buffers all go back when the last of those sinks is done with it.
    /// - Parameter passes: at least one; the first draws every frame.
    func run(passes: [RenderPass], cancellation: Cancellation,
             progress: (@Sendable (Int) -> Void)? = nil, finishing: (() -> Void)? = nil) throws -> RenderStats {
        precondition(!passes.isEmpty, "a render has at least one pass")
        let runners = passes.flatMap(\.runners)
        defer { for runner in runners { runner.thread.stop() } }
        let firstError = Mutex<(any Error)?>(nil)
        let consumed = Atomic<Int>(0)
        let fail: @Sendable (any Error) -> Void = { error in
            firstError.withLock { if $0 == nil { $0 = error } }
            cancellation.fail()
        }

        let ordering = OrderingBuffer<[DrawnFrame]> { index, drawn in
            let consumers = drawn.reduce(0) { $0 + passes[$1.pass].runners.count }
            let release = FrameRelease(consumers: max(1, consumers)) {
                // The later passes' buffers first: the first pass's permit is what lets a worker
                // start another frame, and that frame must find their buffers free again.
                for frame in drawn.reversed() { passes[frame.pass].pool.give(frame.buffer) }
                let done = consumed.add(1, ordering: .relaxed).newValue
                progress?(done)
            }
            if consumers == 0 { release.consumed() }
            for frame in drawn {
                for runner in passes[frame.pass].runners {
                    runner.consume(frame.picture, index: index, skip: { cancellation.isCancelled }, onError: fail,
                                   done: release.consumed)
                }
            }
        }

        let nextIndex = Atomic<Int>(0)
        let workers = DispatchGroup()
        let renderQueue = DispatchQueue(label: "slicevid.render", qos: .userInitiated, attributes: .concurrent)
        let frameCount = self.frameCount
        let window = passes[0].pool
        for _ in 0..<jobs {
            renderQueue.async(group: workers) {
                while !cancellation.isCancelled {
                    // A buffer first, then a frame index: a worker that claimed index i and then
                    // waited for a buffer could wait forever, with every buffer held by frames
                    // after i that the ordering buffer will not release before frame i. A later
                    // pass's buffer never waits: its pool has as many as the window, and each
                    // frame in flight holds at most one.
                    let buffer = window.take()
                    let index = nextIndex.add(1, ordering: .relaxed).oldValue
                    if index >= frameCount || cancellation.isCancelled {
                        window.give(buffer)
                        return
                    }
                    var drawn = [DrawnFrame(pass: 0, picture: passes[0].frame(index, buffer), buffer: buffer)]
                    for (place, pass) in passes.enumerated().dropFirst() where pass.wants(index) {
                        let own = pass.pool.take()
                        drawn.append(DrawnFrame(pass: place, picture: pass.frame(index, own), buffer: own))
                    }
                    ordering.submit(index, drawn)
                }
            }
        }
        workers.wait()
        ordering.drain()
        for runner in runners { runner.drain() }

        // A stop (a signal, a cancelled Task) wins over the errors it provokes (a reader closing
        // the pipe it was told to close): the user asked to stop, and the exit code must say so.
        if cancellation.isStopped { throw RenderCancelled(signal: cancellation.signal) }
        if let error = firstError.withLock({ $0 }) { throw error }
        if cancellation.isCancelled { throw RenderCancelled(signal: nil) }

        finishing?()
        // Flush every encoder at once: each finishes on its own thread.
        let flushing = DispatchGroup()
        for runner in runners {
            flushing.enter()
            runner.finish { error in
                if let error { fail(error) }
                flushing.leave()
            }
        }
        flushing.wait()
        // A signal during the flush still means "stop": the outputs are discarded, as they
        // would have been a frame earlier.
        if cancellation.isStopped { throw RenderCancelled(signal: cancellation.signal) }
        if let error = firstError.withLock({ $0 }) { throw error }
        return RenderStats(frames: ordering.delivered, peakFramesInFlight: window.peakInUse, window: window.capacity)
    }
}

/// The render stopped because it was asked to (a signal), not because something failed.
package struct RenderCancelled: Error, Sendable {
    /// The signal that stopped it, if any.
    package let signal: Int32?
}
