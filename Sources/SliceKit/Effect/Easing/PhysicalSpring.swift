// A spring given physically, as Remotion's spring() and CSS spring() take it: stiffness,
// damping and mass. Unlike UIKit's spring it is not fitted to the duration; it runs in real
// time and is snapped to rest when the duration ends.

/// `spring(stiffness: k, damping: c, mass: m)`: a mass m on a spring of stiffness k with
/// viscous damping c, released from rest at 0 and pulled toward 1.
///
/// Its damping ratio is `ζ = c / (2√(k·m))` and natural frequency `ω0 = √(k/m)`; Remotion's
/// default (100, 10, 1) is ζ 0.5, ω0 10 rad/s. Whatever the transition's duration, the curve
/// is the same in seconds; at the end of the duration it snaps to exactly 1, so a soft spring
/// with a short duration shows a jump.
public struct PhysicalSpring: Sendable, Equatable {
    /// Spring constant k (force per unit of displacement), > 0.
    package let stiffness: Double
    /// Viscous damping coefficient c, > 0. Not a ratio: see `dampingRatio`.
    package let damping: Double
    /// Mass m, > 0.
    package let mass: Double

    /// Remotion's defaults: stiffness 100, damping 10, mass 1.
    package static let defaultDamping = 10.0
    package static let defaultMass = 1.0

    /// The stiffness, damping and mass accepted: far beyond anything that looks like a spring
    /// at video frame rates either way, yet bounded so the damping ratio and frequency stay
    /// within what the closed form computes finitely (the curve stays within 0…2).
    package static let range = 0.01...10_000.0

    package init(stiffness: Double, damping: Double = defaultDamping, mass: Double = defaultMass) {
        self.stiffness = stiffness
        self.damping = damping
        self.mass = mass
    }

    /// ζ = c / (2√(k·m)): below 1 the spring overshoots, 1 is critical, above 1 it creeps.
    package var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

    /// ω0 = √(k/m), rad/s.
    package var naturalFrequency: Double { (stiffness / mass).squareRoot() }

    /// Position after `t` seconds of a transition lasting `duration` seconds: exactly 0 at
    /// the start and exactly 1 from the end of the duration on.
    package func value(at t: Double, duration: Double) -> Double {
        if t <= 0 { return 0 }
        if t >= duration { return 1 }
        return DampedOscillator(zeta: dampingRatio, omega0: naturalFrequency).position(at: t)
    }
}
