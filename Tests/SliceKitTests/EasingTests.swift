// Easing.progress: the one entry point the frame plan uses, for every kind of curve.

import Testing
import SliceKit

@Suite("Easing")
struct EasingTests {
    static let all: [Easing] = [
        .linear, .seedSpring, .cubicBezier(.ease), .cubicBezier(.easeInOut),
        .uikitSpring(damping: 0.5, velocity: 2), .uikitSpring(damping: 1, velocity: 0),
    ]

    @Test("linear is the identity in normalised time")
    func linearIsIdentity() {
        for step in 0...100 {
            let t = Double(step) / 100
            #expect(Easing.linear.progress(elapsed: t, duration: 1) == t)
            #expect(abs(Easing.linear.progress(elapsed: t * 2.5, duration: 2.5) - t) < 1e-15)
        }
    }

    @Test("every easing is exactly 0 at the start and exactly 1 from the end on", arguments: all)
    func endpoints(easing: Easing) {
        for duration in [0.5, 1, 3] {
            #expect(easing.progress(elapsed: 0, duration: duration) == 0)
            #expect(easing.progress(elapsed: -1, duration: duration) == 0)
            #expect(easing.progress(elapsed: duration, duration: duration) == 1)
            #expect(easing.progress(elapsed: duration + 2, duration: duration) == 1)
        }
    }

    @Test("the seed spring gives the reference values for any duration")
    func seedSpringProgress() {
        #expect(Easing.seedSpring == .uikitSpring(damping: 0.8, velocity: 0))
        for duration in [1.0, 2.0, 0.4] {
            #expect(abs(Easing.seedSpring.progress(elapsed: 0.25 * duration, duration: duration) - 0.74837) < 1e-4)
            #expect(abs(Easing.seedSpring.progress(elapsed: 0.5 * duration, duration: duration) - 1.00908) < 1e-4)
        }
    }

    @Test("a cubic Bézier easing follows its curve in normalised time")
    func bezierProgress() {
        let easing = Easing.cubicBezier(.ease)
        #expect(abs(easing.progress(elapsed: 1, duration: 2) - 0.8024033876) < 1e-6)
    }
}
