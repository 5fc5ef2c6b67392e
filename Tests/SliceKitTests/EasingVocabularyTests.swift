// The easing curves against reference values computed independently of the code under test:
// CSS values of cubic-bezier curves, easings.net's Penner formulas written out literally, the
// UIKit spring's values from docs/effect.md ("The effect"), and the physical spring integrated numerically.

import Foundation
import Testing
@testable import SliceKit

@Suite struct EasingVocabularyTests {
    // MARK: cubic-bezier

    /// y at x = 0.1, 0.25, 0.5, 0.75, 0.9, from a 200-step bisection of the Bézier in Python;
    /// `ease` at 0.5 is the 0.8024 every browser draws.
    @Test(arguments: [
        ("ease", [0.094796, 0.408511, 0.802403, 0.960459, 0.994316]),
        ("ease-in", [0.017027, 0.093465, 0.315357, 0.621862, 0.839428]),
        ("ease-out", [0.160572, 0.378138, 0.684643, 0.906535, 0.982973]),
        ("ease-in-out", [0.019722, 0.129162, 0.5, 0.870838, 0.980278]),
        ("cubic-bezier(0.4,0,0.2,1)", [0.025863, 0.236587, 0.775561, 0.959368, 0.994354]),
        ("cubic-bezier(0.34,1.56,0.64,1)", [0.403933, 0.816289, 1.087401, 1.059647, 1.012616]),
    ])
    func cubicBezierMatchesCSS(name: String, expected: [Double]) throws {
        let easing = try Easing(parsing: name)
        for (x, y) in zip([0.1, 0.25, 0.5, 0.75, 0.9], expected) {
            #expect(abs(easing.progress(elapsed: x, duration: 1) - y) < 1e-6, "\(name) at \(x)")
        }
    }

    // MARK: Penner

    /// easings.net's formulas, transcribed one by one rather than derived, so a mistake in
    /// the code's derivation of `out` and `in-out` from `in` shows up here.
    static let penner: [String: @Sendable (Double) -> Double] = {
        let c1 = 1.70158, c2 = c1 * 1.525, c3 = c1 + 1, c4 = 2 * Double.pi / 3, c5 = 2 * Double.pi / 4.5
        @Sendable func bounceOut(_ x: Double) -> Double {
            let n1 = 7.5625, d1 = 2.75
            if x < 1 / d1 { return n1 * x * x }
            if x < 2 / d1 { let x = x - 1.5 / d1; return n1 * x * x + 0.75 }
            if x < 2.5 / d1 { let x = x - 2.25 / d1; return n1 * x * x + 0.9375 }
            let x = x - 2.625 / d1
            return n1 * x * x + 0.984375
        }
        return [
            "ease-in-quad": { $0 * $0 },
            "ease-out-quad": { 1 - (1 - $0) * (1 - $0) },
            "ease-in-out-quad": { $0 < 0.5 ? 2 * $0 * $0 : 1 - pow(-2 * $0 + 2, 2) / 2 },
            "ease-in-cubic": { pow($0, 3) },
            "ease-out-cubic": { 1 - pow(1 - $0, 3) },
            "ease-in-out-cubic": { $0 < 0.5 ? 4 * pow($0, 3) : 1 - pow(-2 * $0 + 2, 3) / 2 },
            "ease-in-quart": { pow($0, 4) },
            "ease-out-quart": { 1 - pow(1 - $0, 4) },
            "ease-in-out-quart": { $0 < 0.5 ? 8 * pow($0, 4) : 1 - pow(-2 * $0 + 2, 4) / 2 },
            "ease-in-quint": { pow($0, 5) },
            "ease-out-quint": { 1 - pow(1 - $0, 5) },
            "ease-in-out-quint": { $0 < 0.5 ? 16 * pow($0, 5) : 1 - pow(-2 * $0 + 2, 5) / 2 },
            "ease-in-sine": { 1 - cos($0 * .pi / 2) },
            "ease-out-sine": { sin($0 * .pi / 2) },
            "ease-in-out-sine": { -(cos(.pi * $0) - 1) / 2 },
            "ease-in-expo": { $0 == 0 ? 0 : pow(2, 10 * $0 - 10) },
            "ease-out-expo": { $0 == 1 ? 1 : 1 - pow(2, -10 * $0) },
            "ease-in-out-expo": { $0 < 0.5 ? pow(2, 20 * $0 - 10) / 2 : (2 - pow(2, -20 * $0 + 10)) / 2 },
            "ease-in-circ": { 1 - (1 - pow($0, 2)).squareRoot() },
            "ease-out-circ": { (1 - pow($0 - 1, 2)).squareRoot() },
            "ease-in-out-circ": { $0 < 0.5 ? (1 - (1 - pow(2 * $0, 2)).squareRoot()) / 2 : ((1 - pow(-2 * $0 + 2, 2)).squareRoot() + 1) / 2 },
            "ease-in-back": { c3 * pow($0, 3) - c1 * $0 * $0 },
            "ease-out-back": { 1 + c3 * pow($0 - 1, 3) + c1 * pow($0 - 1, 2) },
            "ease-in-out-back": { $0 < 0.5 ? (pow(2 * $0, 2) * ((c2 + 1) * 2 * $0 - c2)) / 2
                                            : (pow(2 * $0 - 2, 2) * ((c2 + 1) * ($0 * 2 - 2) + c2) + 2) / 2 },
            "ease-in-elastic": { -pow(2, 10 * $0 - 10) * sin(($0 * 10 - 10.75) * c4) },
            "ease-out-elastic": { pow(2, -10 * $0) * sin(($0 * 10 - 0.75) * c4) + 1 },
            "ease-in-out-elastic": { $0 < 0.5 ? -(pow(2, 20 * $0 - 10) * sin((20 * $0 - 11.125) * c5)) / 2
                                               : (pow(2, -20 * $0 + 10) * sin((20 * $0 - 11.125) * c5)) / 2 + 1 },
            "ease-in-bounce": { 1 - bounceOut(1 - $0) },
            "ease-out-bounce": { bounceOut($0) },
            "ease-in-out-bounce": { $0 < 0.5 ? (1 - bounceOut(1 - 2 * $0)) / 2 : (1 + bounceOut(2 * $0 - 1)) / 2 },
        ]
    }()

    @Test func everyPennerCurveMatchesEasingsNet() throws {
        #expect(EasingVocabularyTests.penner.count == 30)
        #expect(Set(PennerCurve.all.map(\.name)) == Set(EasingVocabularyTests.penner.keys))
        for (name, formula) in EasingVocabularyTests.penner {
            let easing = try Easing(parsing: name)
            for step in 1..<40 {
                let x = Double(step) / 40
                #expect(abs(easing.progress(elapsed: x * 2, duration: 2) - formula(x)) < 1e-12, "\(name) at \(x)")
            }
            #expect(easing.progress(elapsed: 0, duration: 2) == 0)
            #expect(easing.progress(elapsed: 2, duration: 2) == 1)
        }
    }

    @Test func backAndElasticLeaveTheUnitRangeAndBounceDoesNot() throws {
        let samples = (1..<200).map { Double($0) / 200 }
        let backIn = try Easing(parsing: "ease-in-back")
        #expect(samples.map { backIn.progress(elapsed: $0, duration: 1) }.min()! < -0.09)
        let elasticOut = try Easing(parsing: "ease-out-elastic")
        #expect(samples.map { elasticOut.progress(elapsed: $0, duration: 1) }.max()! > 1.3)
        let bounce = try Easing(parsing: "ease-out-bounce")
        #expect(samples.allSatisfy { (0...1).contains(bounce.progress(elapsed: $0, duration: 1)) })
    }

    // MARK: UIKit spring

    @Test func seedSpringMatchesDesignReferenceValues() {
        let spring = Easing.seedSpring
        #expect(abs(UIKitSpring(damping: 0.8, duration: 1).omega0 - 8.99430) < 1e-5)
        for (t, x) in [(0.25, 0.74837), (0.5, 1.00908), (0.75, 1.00755), (0.999, 1.00031)] {
            #expect(abs(spring.progress(elapsed: t, duration: 1) - x) < 1e-5, "x(\(t))")
        }
        let peak = (1..<10_000).map { Double($0) / 10_000 }.max { spring.progress(elapsed: $0, duration: 1) < spring.progress(elapsed: $1, duration: 1) }!
        #expect(abs(peak - 0.5821) < 1e-3)
        #expect(abs(spring.progress(elapsed: peak, duration: 1) - 1.01516) < 1e-5)
        // The end snap: a hair above 1 just before the end, exactly 1 at and after it.
        #expect(spring.progress(elapsed: 0.999, duration: 1) > 1)
        #expect(spring.progress(elapsed: 1, duration: 1) == 1)
        #expect(spring.progress(elapsed: 7, duration: 1) == 1)
    }

    @Test func criticallyDampedUIKitSpringNeverOvershoots() {
        let spring = Easing.uikitSpring(damping: 1, velocity: 0)
        let values = (0...1000).map { spring.progress(elapsed: Double($0) / 1000, duration: 1) }
        #expect(values.allSatisfy { $0 <= 1 })
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 })
    }

    // MARK: physical spring

    /// m·x'' = −k·(x − 1) − c·x', x(0) = 0, x'(0) = 0, integrated with RK4 in 1e-5 s steps:
    /// a reference that shares no formula with the closed form under test.
    static func integrated(_ k: Double, _ c: Double, _ m: Double, until end: Double) -> [Double: Double] {
        var x = 0.0, v = 0.0, t = 0.0
        let h = 1e-5
        var samples: [Double: Double] = [:]
        func accel(_ x: Double, _ v: Double) -> Double { (-k * (x - 1) - c * v) / m }
        let every = 1000 // a sample every 0.01 s
        for step in 1...Int((end / h).rounded()) {
            let (k1x, k1v) = (v, accel(x, v))
            let (k2x, k2v) = (v + h / 2 * k1v, accel(x + h / 2 * k1x, v + h / 2 * k1v))
            let (k3x, k3v) = (v + h / 2 * k2v, accel(x + h / 2 * k2x, v + h / 2 * k2v))
            let (k4x, k4v) = (v + h * k3v, accel(x + h * k3x, v + h * k3v))
            x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
            v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
            t += h
            if step % every == 0 { samples[(t * 100).rounded() / 100] = x }
        }
        return samples
    }

    /// Underdamped (Remotion's default, ζ 0.5), critically damped (ζ 1) and overdamped (ζ 2).
    @Test(arguments: [(100.0, 10.0, 1.0), (100, 20, 1), (100, 40, 1), (170, 26, 2)])
    func physicalSpringMatchesIntegration(k: Double, c: Double, m: Double) throws {
        let easing = try Easing(parsing: "spring(stiffness: \(k.shortText), damping: \(c.shortText), mass: \(m.shortText))")
        let reference = EasingVocabularyTests.integrated(k, c, m, until: 1.5)
        #expect(reference.count == 150)
        for (t, x) in reference where t < 1.5 {
            #expect(abs(easing.progress(elapsed: t, duration: 1.5) - x) < 1e-7, "k \(k) c \(c) m \(m) at \(t)")
        }
    }

    @Test func remotionDefaultSpringOvershootsAndSnapsAtTheEnd() throws {
        let easing = try Easing(parsing: "spring(stiffness: 100)")
        #expect(easing == .physicalSpring(PhysicalSpring(stiffness: 100, damping: 10, mass: 1)))
        // ζ 0.5, ωd = 10·√0.75: the peak is at π/ωd with overshoot e^(−πζ/√(1−ζ²)) = 16.3 %.
        let peakTime = Double.pi / (10 * 0.75.squareRoot())
        let peak = easing.progress(elapsed: peakTime, duration: 1)
        #expect(abs(peak - (1 + exp(-Double.pi * 0.5 / 0.75.squareRoot()))) < 1e-12)
        #expect(abs(peak - 1.16303) < 1e-5)
        // It runs in real time: a longer duration does not slow it down.
        #expect(easing.progress(elapsed: 0.2, duration: 1) == easing.progress(elapsed: 0.2, duration: 3))
        // Still 0.67 % off rest just before 1 s, then snapped.
        #expect(abs(easing.progress(elapsed: 0.999, duration: 1) - 1) > 0.001)
        #expect(easing.progress(elapsed: 1, duration: 1) == 1)
    }

    @Test func overdampedPhysicalSpringCreepsWithoutOvershoot() throws {
        let easing = try Easing(parsing: "spring(stiffness: 100, damping: 40, mass: 1)")
        let values = (0...500).map { easing.progress(elapsed: Double($0) / 500, duration: 1) }
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(values.dropLast().allSatisfy { $0 < 1 })
    }
}
