// The easing vocabulary: the curve every strip follows from rest to its travel.

/// How transition progress moves from 0 to 1 over the transition's duration.
///
/// The same text form is used on the command line (`--easing`) and in preset files, and
/// `description` prints it back in a form `Easing(parsing:)` accepts.
public enum Easing: Sendable, Equatable {
    /// Constant speed.
    case linear
    /// A CSS timing function (`ease`, `ease-in`, … and any `cubic-bezier(x1,y1,x2,y2)`).
    case cubicBezier(CubicBezier)
    /// UIKit's duration-fitted spring: `spring(damping: ζ, velocity: v0)`; the seed uses ζ 0.8.
    case uikitSpring(damping: Double, velocity: Double)
    /// One of Penner's curves, `ease-in-quad` … `ease-in-out-bounce`.
    case penner(PennerCurve)
    /// A spring given physically, `spring(stiffness: k, damping: c, mass: m)`, running in real
    /// time and snapped to 1 at the end of the duration.
    case physicalSpring(PhysicalSpring)

    /// The seed's curve: UIKit `usingSpringWithDamping: 0.8, initialSpringVelocity: 0`.
    public static let seedSpring = Easing.uikitSpring(damping: 0.8, velocity: 0)

    /// Eased progress after `elapsed` seconds of a transition lasting `duration` seconds.
    /// Springs may overshoot past 1 before settling; every curve is exactly 0 at the start and
    /// exactly 1 from the end of the duration on.
    package func progress(elapsed: Double, duration: Double) -> Double {
        if elapsed <= 0 { return 0 }
        if elapsed >= duration { return 1 }
        let x = elapsed / duration
        switch self {
        case .linear:
            return x
        case .cubicBezier(let curve):
            return curve.value(at: x)
        case .uikitSpring(let damping, let velocity):
            return UIKitSpring(damping: damping, initialVelocity: velocity, duration: duration)
                .value(at: elapsed)
        case .penner(let curve):
            return curve.value(at: x)
        case .physicalSpring(let spring):
            return spring.value(at: elapsed, duration: duration)
        }
    }
}
