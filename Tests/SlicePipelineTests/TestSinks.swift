// Sinks for pipeline tests: record what arrives, optionally slowly, optionally failing.

import Foundation
import SliceKit
@testable import SlicePipeline
import Synchronization

/// Records the order frames arrive in and a checksum of each frame's pixels.
final class RecordingSink: FrameSink, @unchecked Sendable {
    // @unchecked: mutated only from the sink's serial queue; read after the run finished.
    var indices: [Int] = []
    var checksums: [UInt64] = []
    var buffers = Set<ObjectIdentifier>()
    var finished = false
    let delay: useconds_t
    let failAt: Int?
    let wanted: FramesWanted

    init(delay: useconds_t = 0, failAt: Int? = nil, wanted: FramesWanted = .all) {
        self.delay = delay
        self.failAt = failAt
        self.wanted = wanted
    }

    func consume(_ frame: PlanarImage, index: Int) throws {
        if index == failAt { throw SlicevidError(.outputFailed, "sink failed at \(index)") }
        if delay > 0 { usleep(delay) }
        indices.append(index)
        checksums.append(frame.checksum)
        buffers.insert(ObjectIdentifier(frame))
    }

    func finish() throws { finished = true }
}

extension PlanarImage {
    /// FNV-1a over every plane's visible bytes.
    var checksum: UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for plane in planes {
            for y in 0..<plane.height {
                let row = plane.row(y)
                for x in 0..<plane.width { hash = (hash ^ UInt64(row[x])) &* 0x100_0000_01b3 }
            }
        }
        return hash
    }
}

/// Counts frames between render start and the end of consumption by the sink.
final class AliveCounter: Sendable {
    private let alive = Atomic<Int>(0)
    private let peak = Atomic<Int>(0)

    func enter() {
        let now = alive.add(1, ordering: .relaxed).newValue
        _ = peak.max(now, ordering: .relaxed)
    }

    func leave() { alive.subtract(1, ordering: .relaxed) }

    var peakAlive: Int { peak.load(ordering: .relaxed) }
}

/// A sink that marks frames as no longer alive once consumed.
final class CountingSink: FrameSink {
    let counter: AliveCounter
    let delay: useconds_t

    init(counter: AliveCounter, delay: useconds_t) {
        self.counter = counter
        self.delay = delay
    }

    func consume(_ frame: PlanarImage, index: Int) throws {
        if delay > 0 { usleep(delay) }
        counter.leave()
    }

    func finish() throws {}
}

/// A sink interrupted by SIGTERM, as a cron timeout would: during its flush, or (with
/// `failAt`) while it writes a frame, which then fails as a pipe closed by the same
/// timeout would.
final class SignallingSink: FrameSink, @unchecked Sendable {
    // @unchecked: mutated only from the sink's serial queue; read after the run finished.
    let cancellation: Cancellation
    let failAt: Int?
    var finished = false

    init(cancellation: Cancellation, failAt: Int? = nil) {
        self.cancellation = cancellation
        self.failAt = failAt
    }

    func consume(_ frame: PlanarImage, index: Int) throws {
        guard index == failAt else { return }
        cancellation.cancel(signal: SIGTERM)
        throw SlicevidError(.outputFailed, "broken pipe at frame \(index)")
    }

    func finish() throws {
        finished = true
        if failAt == nil { cancellation.cancel(signal: SIGTERM) }
    }
}
