// Renders with an encoder that shares process state (SVT-AV1) take turns: one waits while
// another holds the turn, a render of other encoders never waits, and a signal ends the wait.

import Dispatch
import Foundation
import SliceMedia
@testable import SlicePipeline
import Synchronization
import Testing

/// An error one thread leaves for another.
private final class Outcome: Sendable {
    private let error = Mutex<SlicevidError?>(nil)
    var value: SlicevidError? { error.withLock { $0 } }
    func set(_ new: SlicevidError) { error.withLock { $0 = new } }
}

/// A flag threads share.
private final class Flag: Sendable {
    private let value = Atomic(false)
    var isSet: Bool { value.load(ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
}

@Suite(.serialized, .timeLimit(.minutes(5))) struct EncoderTurnsTests {
    /// Waits until another render is waiting for the turn, or `ran` says it went ahead.
    private func untilWaitingOrRan(_ ran: Flag) {
        while EncoderTurns.waiting.load(ordering: .relaxed) == 0 && !ran.isSet { sched_yield() }
    }

    @Test("an AV1 render waits while another holds the turn; an H.264 render does not")
    func av1RendersTakeTurns() throws {
        let secondRan = Flag()
        let secondDone = DispatchSemaphore(value: 0)
        var secondRanInside = true
        var otherCodecRanInside = false
        try EncoderTurns.run(encoders: ["libx264", "libsvtav1"], cancellation: Cancellation()) { () throws(SlicevidError) in
            Thread.detachNewThread {
                _ = try? EncoderTurns.run(encoders: ["libsvtav1"], cancellation: Cancellation()) { () throws(SlicevidError) in
                    secondRan.set()
                }
                secondDone.signal()
            }
            untilWaitingOrRan(secondRan)
            secondRanInside = secondRan.isSet
            // Other encoders go ahead, turn or no turn.
            try EncoderTurns.run(encoders: ["libx264", "libvpx-vp9"], cancellation: Cancellation()) { () throws(SlicevidError) in
                otherCodecRanInside = true
            }
        }
        secondDone.wait()
        #expect(!secondRanInside, "the second AV1 render ran while the first held the turn")
        #expect(otherCodecRanInside)
        #expect(secondRan.isSet, "the second AV1 render never ran once the turn was given back")
    }

    @Test("a signal ends the wait for the turn with the interruption, and the render never runs")
    func aSignalEndsTheWait() throws {
        let stop = Cancellation()
        let ran = Flag()
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        try EncoderTurns.run(encoders: ["libsvtav1"], cancellation: Cancellation()) { () throws(SlicevidError) in
            Thread.detachNewThread {
                do throws(SlicevidError) {
                    try EncoderTurns.run(encoders: ["libsvtav1"], cancellation: stop) { () throws(SlicevidError) in ran.set() }
                } catch {
                    outcome.set(error)
                }
                done.signal()
            }
            untilWaitingOrRan(ran)
            stop.cancel(signal: SIGTERM)
            // The waiting render gives up while this one still holds the turn.
            done.wait()
        }
        #expect(!ran.isSet)
        let error = try #require(outcome.value)
        #expect(error.category == .interrupted(signal: SIGTERM), "\(error)")
    }

    @Test("two makes with AV1 outputs in one process: the second waits for the first's render to end",
          .enabled(if: EncoderCatalog.installed.has("libsvtav1"), "needs SVT-AV1"))
    func makesWithAV1TakeTurns() throws {
        var spec = try MakeJobOutputsTests.tinySpec()
        spec.height = 64
        let dir = try MakeJobOutputsTests.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let first = try MakeRequest.parsing(spec: spec, outputs: ["\(dir)/first.mkv:codec=av1"], encoder: EncoderSettings(preset: "ultrafast"), jobs: 1)
        let second = try MakeRequest.parsing(spec: spec, outputs: ["\(dir)/second.mkv:codec=av1"], encoder: EncoderSettings(preset: "ultrafast"), jobs: 1)
        let started = Flag(), secondRendered = Flag(), secondWaited = Flag()
        let secondDone = DispatchSemaphore(value: 0)
        _ = try MakeJob.run(first) { event in
            // The first frame done: this render holds the turn, and stays in it until the second
            // make has come to the turn (or rendered past it).
            guard case .progress = event, !started.isSet else { return }
            started.set()
            Thread.detachNewThread {
                if (try? MakeJob.run(second)) != nil { secondRendered.set() }
                secondDone.signal()
            }
            untilWaitingOrRan(secondRendered)
            if !secondRendered.isSet { secondWaited.set() }
        }
        secondDone.wait()
        #expect(secondWaited.isSet, "the second make rendered while the first was rendering")
        #expect(secondRendered.isSet)
        for name in ["first", "second"] { #expect(try MediaReader.info(path: "\(dir)/\(name).mkv").frameCount > 0) }
    }
}
