// The closed-form motion of a damped spring released toward its target: the one formula behind
// both springs slicevid offers (UIKit's duration-fitted one and the physical one).

import Foundation

/// A unit-mass damped harmonic oscillator that starts at 0 with velocity `v0` and is pulled
/// toward 1: `x'' + 2ζω0·x' + ω0²·(x − 1) = 0`, `x(0) = 0`, `x'(0) = v0`.
package struct DampedOscillator: Sendable, Equatable {
    /// Damping ratio ζ > 0: below 1 it overshoots and rings, 1 is critically damped, above 1
    /// it creeps toward the target without overshooting.
    package let zeta: Double
    /// Natural angular frequency ω0 in rad/s.
    package let omega0: Double
    /// Initial velocity toward the target, in target distances per second.
    package let v0: Double

    /// - Precondition: `zeta > 0` and `omega0 > 0`.
    package init(zeta: Double, omega0: Double, v0: Double = 0) {
        precondition(zeta > 0 && omega0 > 0, "a damped oscillator needs positive damping and frequency")
        self.zeta = zeta
        self.omega0 = omega0
        self.v0 = v0
    }

    /// Position after `t` seconds (t ≥ 0).
    package func position(at t: Double) -> Double {
        // Within 1e-9 of critical damping the under- and overdamped forms divide by ~0.
        if abs(zeta - 1) < 1e-9 {
            return 1 - exp(-omega0 * t) * (1 + (omega0 - v0) * t)
        }
        if zeta < 1 {
            let omegaD = omega0 * (1 - zeta * zeta).squareRoot()
            let decay = exp(-zeta * omega0 * t)
            return 1 - decay * (cos(omegaD * t) + ((zeta * omega0 - v0) / omegaD) * sin(omegaD * t))
        }
        // Overdamped: the displacement x − 1 is c1·e^(r1·t) + c2·e^(r2·t) with real roots
        // r1 > r2, fixed by x(0) = 0 and x'(0) = v0.
        let root = omega0 * (zeta * zeta - 1).squareRoot()
        let r1 = -zeta * omega0 + root, r2 = -zeta * omega0 - root
        let c1 = (v0 + r2) / (r1 - r2)
        let c2 = -1 - c1
        return 1 + c1 * exp(r1 * t) + c2 * exp(r2 * t)
    }
}
