// CSS timing functions: a cubic Bézier from (0,0) to (1,1), solved the way WebKit's
// UnitBezier solves it, so `ease-in-out` here is the curve a browser draws.

/// A CSS `cubic-bezier(x1, y1, x2, y2)` timing function.
public struct CubicBezier: Sendable, Equatable {
    package let x1: Double, y1: Double, x2: Double, y2: Double

    // Polynomial coefficients of x(t) and y(t), as in WebKit's UnitBezier.
    private let ax: Double, bx: Double, cx: Double
    private let ay: Double, by: Double, cy: Double

    /// Creates the curve with control points (x1, y1) and (x2, y2).
    /// - Precondition: x1 and x2 lie in [0, 1], as CSS requires, so x(t) is monotonic.
    package init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by
    }

    /// The y1 and y2 accepted. CSS allows any; a curve stays within the range of its control
    /// points, so this bounds the overshoot at ten times the travel.
    package static let yRange = -10.0...10.0

    /// CSS `ease`.
    package static let ease = CubicBezier(0.25, 0.1, 0.25, 1)
    /// CSS `ease-in`.
    package static let easeIn = CubicBezier(0.42, 0, 1, 1)
    /// CSS `ease-out`.
    package static let easeOut = CubicBezier(0, 0, 0.58, 1)
    /// CSS `ease-in-out`.
    package static let easeInOut = CubicBezier(0.42, 0, 0.58, 1)

    /// The eased value for input progress `x` in [0, 1].
    package func value(at x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        return sampleY(solveT(forX: x, epsilon: 1e-9))
    }

    private func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    private func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    private func sampleDerivativeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    /// Newton's method first (fast when the slope is healthy), bisection when it is not.
    private func solveT(forX x: Double, epsilon: Double) -> Double {
        var t = x
        for _ in 0..<8 {
            let error = sampleX(t) - x
            if abs(error) < epsilon { return t }
            let slope = sampleDerivativeX(t)
            if abs(slope) < 1e-6 { break }
            t -= error / slope
        }
        var low = 0.0, high = 1.0
        t = x
        while low < high {
            let value = sampleX(t)
            if abs(value - x) < epsilon { return t }
            if x > value { low = t } else { high = t }
            let next = (high - low) * 0.5 + low
            if next == t { return t }
            t = next
        }
        return t
    }
}
