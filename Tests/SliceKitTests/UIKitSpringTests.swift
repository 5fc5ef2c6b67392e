// The seed's curve: UIKit's duration-fitted spring, checked against the reference values in
// docs/effect.md ("The effect") and against the envelope equation that defines it.

import Foundation
import Testing
import SliceKit

@Suite("UIKitSpring")
struct UIKitSpringTests {
    /// The seed: `usingSpringWithDamping: 0.8, initialSpringVelocity: 0`, 1 s.
    let seed = UIKitSpring(damping: 0.8, duration: 1)

    @Test("ω0 for ζ 0.8, D 1 s is 8.99430 rad/s")
    func naturalFrequency() {
        #expect(abs(seed.omega0 - 8.99430) < 1e-4)
    }

    @Test("matches the reference positions", arguments: [
        (0.25, 0.74837), (0.5, 1.00908), (0.75, 1.00755), (0.999, 1.00031),
    ])
    func referenceValues(t: Double, expected: Double) {
        #expect(abs(seed.value(at: t) - expected) < 1e-4)
    }

    @Test("peaks at 1.01516 near t = 0.5821 s (found by search)")
    func overshootPeak() {
        var peakTime = 0.0, peak = -Double.infinity
        for step in 1..<100_000 {
            let t = Double(step) * 1e-5
            let x = seed.value(at: t)
            if x > peak { peak = x; peakTime = t }
        }
        #expect(abs(peak - 1.01516) < 1e-4)
        #expect(abs(peakTime - 0.5821) < 5e-4)
    }

    @Test("starts at exactly 0 and snaps to exactly 1 at the end of the duration")
    func endpoints() {
        #expect(seed.value(at: 0) == 0)
        #expect(seed.value(at: -0.5) == 0)
        #expect(seed.value(at: 1) == 1)
        #expect(seed.value(at: 3) == 1)
        #expect(seed.value(at: 0.999) != 1)
    }

    @Test("with v0 = 0 the curve depends only on t / D", arguments: [0.25, 0.5, 2, 7.5])
    func independentOfDurationInNormalisedTime(duration: Double) {
        let other = UIKitSpring(damping: 0.8, duration: duration)
        #expect(abs(other.omega0 * duration - seed.omega0) < 1e-9)
        for step in 0...100 {
            let s = Double(step) / 100
            #expect(abs(other.value(at: s * duration) - seed.value(at: s)) < 1e-9)
        }
    }

    @Test("underdamped springs satisfy the envelope equation at D", arguments: [
        (0.8, 0.0, 1.0), (0.8, 1.0, 1.0), (0.6, 1.0, 1.0), (0.5, -2.0, 1.0), (0.9, 5.0, 0.5), (0.3, 0.5, 2.0),
    ])
    func underdampedEnvelope(zeta: Double, v0: Double, duration: Double) {
        let spring = UIKitSpring(damping: zeta, initialVelocity: v0, duration: duration)
        let w0 = spring.omega0
        let wd = w0 * (1 - zeta * zeta).squareRoot()
        let envelope = abs(zeta * w0 - v0) / wd * exp(-zeta * w0 * duration)
        #expect(abs(envelope - 0.001) < 1e-9)
        // The curve is the damped oscillator with that ω0, released at 0 with velocity v0.
        for step in 1..<50 {
            let t = Double(step) / 50 * duration
            let expected = 1 - exp(-zeta * w0 * t) * (cos(wd * t) + (zeta * w0 - v0) / wd * sin(wd * t))
            #expect(abs(spring.value(at: t) - expected) < 1e-12)
        }
    }

    /// A fast start (v0 above ω0) makes the bracket negative; its size is what decays to ε.
    /// Taking the sign along once gave v0 = 10 an ω0 of 1e-6: a straight ramp to 10 travels
    /// and a jump back at the end.
    @Test("critically damped springs satisfy |1 + (ω0 − v0)·D|·e^(−ω0·D) = ε", arguments: [
        (0.0, 1.0), (1.0, 1.0), (-1.0, 1.0), (0.0, 2.0), (3.0, 0.5), (10.0, 1.0), (100.0, 1.0), (100.0, 60.0),
    ])
    func criticallyDampedEnvelope(v0: Double, duration: Double) {
        let spring = UIKitSpring(damping: 1, initialVelocity: v0, duration: duration)
        let w0 = spring.omega0
        let envelope = abs(1 + (w0 - v0) * duration) * exp(-w0 * duration)
        #expect(abs(envelope - 0.001) < 1e-9)
        // So the curve has settled to within ε just before it snaps to 1.
        #expect(abs(spring.value(at: duration * 0.9999) - 1) < 0.0011)
        for step in 1..<50 {
            let t = Double(step) / 50 * duration
            let expected = 1 - exp(-w0 * t) * (1 + (w0 - v0) * t)
            #expect(abs(spring.value(at: t) - expected) < 1e-12)
        }
    }

    @Test("a critically damped spring at rest never overshoots")
    func criticallyDampedHasNoOvershoot() {
        let spring = UIKitSpring(damping: 1, duration: 1)
        // (1 + u)·e^(−u) = 0.001 has its root at u ≈ 9.23341.
        #expect(abs(spring.omega0 - 9.23341) < 1e-4)
        var previous = 0.0
        for step in 1...1000 {
            let x = spring.value(at: Double(step) / 1000)
            #expect(x <= 1)
            #expect(x >= previous)
            previous = x
        }
    }

    @Test("initial velocity is the slope at t = 0, in travels per second", arguments: [
        (0.8, 1.0), (0.6, -2.0), (1.0, 3.0), (0.8, 0.0),
    ])
    func initialSlope(zeta: Double, v0: Double) {
        let spring = UIKitSpring(damping: zeta, initialVelocity: v0, duration: 1)
        let h = 1e-7
        #expect(abs(spring.value(at: h) / h - v0) < 1e-3)
    }
}
