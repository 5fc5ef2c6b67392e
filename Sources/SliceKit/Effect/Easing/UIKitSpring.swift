// UIKit's duration-based spring (`animate(withDuration:delay:usingSpringWithDamping:
// initialSpringVelocity:)`), the curve of the seed transition.

import Foundation

/// A damped spring fitted to a duration the way UIKit fits it: the damping ratio ζ is kept and
/// the natural frequency ω0 is chosen so that the oscillation envelope has decayed to
/// `epsilon` (0.001) when the duration ends; the curve snaps to 1 from then on.
///
/// See docs/effect.md, "The effect", for the formula and the reference values the tests check.
package struct UIKitSpring: Sendable, Equatable {
    /// The envelope left at the end of the duration; UIKit, Framer and SwiftUI use 0.001.
    package static let epsilon = 0.001

    /// The damping ratios accepted. Below about ε the envelope equation has no positive root
    /// (the spring cannot decay to ε at all); 0.01 keeps ω0 finite for every duration accepted.
    package static let dampingRange = 0.01...1.0

    /// The largest initial velocity accepted either way, in travels per second.
    package static let maximumVelocity = 100.0

    /// Damping ratio ζ, 0 < ζ ≤ 1 (1 is critically damped).
    package let damping: Double
    /// Initial velocity in UIKit's units: fractions of the total travel per second.
    package let initialVelocity: Double
    /// The duration the spring is fitted to, in seconds.
    package let duration: Double
    /// The natural angular frequency ω0 (rad/s) that makes the envelope reach ε at `duration`.
    package let omega0: Double

    /// Fits a spring to `duration`.
    /// - Parameters:
    ///   - damping: ζ in (0, 1].
    ///   - initialVelocity: v0 (UIKit's `initialSpringVelocity`).
    ///   - duration: seconds, > 0.
    package init(damping: Double, initialVelocity: Double = 0, duration: Double) {
        precondition(damping > 0 && damping <= 1, "damping must be in (0, 1]")
        precondition(duration > 0, "duration must be positive")
        self.damping = damping
        self.initialVelocity = initialVelocity
        self.duration = duration
        self.omega0 = UIKitSpring.solveOmega0(zeta: damping, v0: initialVelocity, duration: duration)
    }

    /// The spring's position at `t` seconds: 0 at rest at the start, 1 at the target.
    /// Returns exactly 1 for `t >= duration`, the snap UIKit makes at the end.
    package func value(at t: Double) -> Double {
        if t <= 0 { return 0 }
        if t >= duration { return 1 }
        return DampedOscillator(zeta: damping, omega0: omega0, v0: initialVelocity).position(at: t)
    }


    /// The envelope of the oscillation at the end of the duration, minus ε. The fitted ω0 is
    /// a root of this function.
    static func envelopeExcess(zeta: Double, omega0: Double, v0: Double, duration: Double) -> Double {
        if zeta >= 1 {
            // The displacement is −e^(−ω0·t)·(1 + (ω0 − v0)·t); its size, not its sign, is
            // what has to have decayed (a fast start makes the bracket negative).
            return abs(1 + (omega0 - v0) * duration) * exp(-omega0 * duration) - epsilon
        }
        let omegaD = omega0 * (1 - zeta * zeta).squareRoot()
        return abs(zeta * omega0 - v0) / omegaD * exp(-zeta * omega0 * duration) - epsilon
    }

    /// Finds ω0. With v0 = 0 and ζ < 1 the closed form applies; otherwise the largest root of
    /// the envelope equation is bracketed from above and refined by bisection, which always
    /// converges (Newton can jump between roots when v0 makes the envelope non-monotonic).
    static func solveOmega0(zeta: Double, v0: Double, duration: Double) -> Double {
        if zeta < 1 && v0 == 0 {
            return log(zeta / (epsilon * (1 - zeta * zeta).squareRoot())) / (zeta * duration)
        }
        // Walk down from a frequency where the envelope is certainly below ε.
        var high = 1e4 / duration
        var low = high
        while low > 1e-6 {
            low = high * 0.8
            if envelopeExcess(zeta: zeta, omega0: low, v0: v0, duration: duration) > 0 { break }
            high = low
        }
        for _ in 0..<200 {
            let mid = 0.5 * (low + high)
            if envelopeExcess(zeta: zeta, omega0: mid, v0: v0, duration: duration) > 0 {
                low = mid
            } else {
                high = mid
            }
        }
        return high
    }
}
