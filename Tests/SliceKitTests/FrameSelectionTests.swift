// FrameSelection: which rendered frames a GIF or a poster keeps, for exact and NTSC rates.

import SliceKit
import Testing

@Suite("FrameSelection")
struct FrameSelectionTests {
    @Test("every frame, when the output's rate is the render's or above")
    func every() {
        let all = FrameSelection(every: 61, rate: FrameRate(30))
        #expect(all.count == 61 && all.indices == Array(0..<61))
        let faster = FrameSelection(renderFrames: 6, renderRate: FrameRate(10), rate: FrameRate(15))
        #expect(faster.rule == .every && faster.count == 6)
        #expect(!all.contains(61) && !all.contains(-1))
    }

    @Test("half the rate keeps every other frame, and always the last (the destination)")
    func halfRate() {
        let even = FrameSelection(renderFrames: 61, renderRate: FrameRate(30), rate: FrameRate(15))
        #expect(even.indices == Array(stride(from: 0, through: 60, by: 2)))
        #expect(even.count == 31)
        let odd = FrameSelection(renderFrames: 60, renderRate: FrameRate(30), rate: FrameRate(15))
        #expect(odd.indices == Array(stride(from: 0, through: 58, by: 2)) + [59])
        #expect(odd.count == odd.indices.count)
    }

    @Test("output frame k shows the rendered frame nearest k / rate", arguments: [
        (FrameRate(30), FrameRate(12), 61), (FrameRate(30000, 1001), FrameRate(15), 100),
        (FrameRate(60), FrameRate(25), 121), (FrameRate(24), FrameRate(10), 49), (FrameRate(30), FrameRate(29), 31),
    ])
    func nearest(render: FrameRate, rate: FrameRate, frames: Int) {
        let selection = FrameSelection(renderFrames: frames, renderRate: render, rate: rate)
        let expected = Set((0...).lazy.map { k in Int((Double(k) * render.value / rate.value).rounded()) }
            .prefix { $0 < frames }).union([frames - 1])
        #expect(selection.indices == expected.sorted())
        #expect(selection.count == expected.count)
        #expect(abs(selection.frameDuration - 1 / rate.value) < 1e-12)
    }

    @Test("positions count the kept frames; the appended destination comes last")
    func positions() {
        let odd = FrameSelection(renderFrames: 60, renderRate: FrameRate(30), rate: FrameRate(15))
        #expect(odd.indices.map { odd.position(of: $0) } == Array(0..<odd.count).map(Optional.some))
        #expect(odd.position(of: 59) == 30 && odd.position(of: 1) == nil)
        let ntsc = FrameSelection(renderFrames: 100, renderRate: FrameRate(60), rate: FrameRate(50))
        #expect(ntsc.indices.map { ntsc.position(of: $0)! } == Array(0..<ntsc.count))
    }

    @Test("a single frame, clamped to the render")
    func single() {
        let poster = FrameSelection(single: 60, renderFrames: 61, renderRate: FrameRate(30))
        #expect(poster.indices == [60] && poster.count == 1)
        #expect(FrameSelection(single: 99, renderFrames: 61, renderRate: FrameRate(30)).indices == [60])
        #expect(FrameSelection(single: 0, renderFrames: 61, renderRate: FrameRate(30)).contains(0))
    }
}
