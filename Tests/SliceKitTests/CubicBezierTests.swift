// CSS timing functions, checked against an independent solver: the Bézier in Bernstein form,
// x(t) = x inverted by plain bisection.

import Testing
import SliceKit

/// Reference easing: bisection on x(t) in Bernstein form (monotonic when x1, x2 ∈ [0, 1]),
/// then y at that t. Shares no code or coefficients with `CubicBezier`.
func referenceBezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at x: Double) -> Double {
    func coordinate(_ p1: Double, _ p2: Double, _ t: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
    }
    var low = 0.0, high = 1.0
    for _ in 0..<100 {
        let mid = (low + high) / 2
        if coordinate(x1, x2, mid) < x { low = mid } else { high = mid }
    }
    return coordinate(y1, y2, (low + high) / 2)
}

@Suite("CubicBezier")
struct CubicBezierTests {
    static let cssCurves: [(name: String, curve: CubicBezier, points: [Double])] = [
        ("ease", .ease, [0.25, 0.1, 0.25, 1]),
        ("ease-in", .easeIn, [0.42, 0, 1, 1]),
        ("ease-out", .easeOut, [0, 0, 0.58, 1]),
        ("ease-in-out", .easeInOut, [0.42, 0, 0.58, 1]),
    ]

    @Test("named curves have the CSS control points")
    func controlPoints() {
        for entry in Self.cssCurves {
            let c = entry.curve
            #expect([c.x1, c.y1, c.x2, c.y2] == entry.points, "\(entry.name)")
        }
    }

    @Test("every curve starts at 0 and ends at 1, clamped outside [0, 1]")
    func endpoints() {
        let curves = Self.cssCurves.map(\.curve) + [CubicBezier(0.68, -0.55, 0.265, 1.55)]
        for c in curves {
            #expect(c.value(at: 0) == 0)
            #expect(c.value(at: 1) == 1)
            #expect(c.value(at: -0.3) == 0)
            #expect(c.value(at: 1.7) == 1)
        }
    }

    @Test("CSS curves are monotonic and stay within [0, 1]")
    func monotonic() {
        for entry in Self.cssCurves {
            var previous = 0.0
            for step in 0...2000 {
                let y = entry.curve.value(at: Double(step) / 2000)
                #expect(y >= previous, "\(entry.name) decreases at \(step)")
                #expect((0...1).contains(y))
                previous = y
            }
        }
    }

    @Test("known values from an independent solver")
    func knownValues() {
        #expect(abs(CubicBezier.ease.value(at: 0.5) - 0.8024033876) < 1e-6)
        #expect(abs(CubicBezier.easeIn.value(at: 0.5) - 0.3153568126) < 1e-6)
        #expect(abs(CubicBezier.easeOut.value(at: 0.5) - 0.6846431874) < 1e-6)
        #expect(abs(CubicBezier.easeInOut.value(at: 0.5) - 0.5) < 1e-9)
        #expect(abs(CubicBezier.easeInOut.value(at: 0.25) - 0.1291619310) < 1e-6)
    }

    @Test("agrees with the reference solver across [0, 1]", arguments: [
        [0.25, 0.1, 0.25, 1], [0.42, 0, 1, 1], [0, 0, 0.58, 1], [0.42, 0, 0.58, 1],
        [0.1, 0.7, 1, 0.1], [0.68, -0.55, 0.265, 1.55], [0, 1, 1, 0], [0.05, 0, 0, 1],
    ])
    func matchesReference(points: [Double]) {
        let curve = CubicBezier(points[0], points[1], points[2], points[3])
        for step in 1..<400 {
            let x = Double(step) / 400
            let expected = referenceBezier(points[0], points[1], points[2], points[3], at: x)
            #expect(abs(curve.value(at: x) - expected) < 1e-6, "x = \(x)")
        }
    }

    @Test("a curve with a vertical tangent is still solved to well under a pixel")
    func verticalTangent() {
        // cubic-bezier(1,0,0,1) has dx/dt = 0 at x = 0.5, so y(x) is infinitely steep there and
        // solving x to 1e-9 (WebKit's precision) leaves y within a few 1e-6 rather than 1e-9.
        for step in 1..<400 {
            let x = Double(step) / 400
            let expected = referenceBezier(1, 0, 0, 1, at: x)
            #expect(abs(CubicBezier(1, 0, 0, 1).value(at: x) - expected) < 1e-4, "x = \(x)")
        }
    }

    @Test("ease-out is ease-in reflected through (0.5, 0.5)")
    func easeInOutSymmetry() {
        for step in 0...100 {
            let x = Double(step) / 100
            #expect(abs(CubicBezier.easeIn.value(at: x) + CubicBezier.easeOut.value(at: 1 - x) - 1) < 1e-7)
            #expect(abs(CubicBezier.easeInOut.value(at: x) + CubicBezier.easeInOut.value(at: 1 - x) - 1) < 1e-7)
        }
    }

    @Test("straight-line control points give the identity", arguments: [
        [0, 0, 1, 1], [1.0 / 3, 1.0 / 3, 2.0 / 3, 2.0 / 3], [0.2, 0.2, 0.7, 0.7],
    ])
    func linearIsIdentity(points: [Double]) {
        let curve = CubicBezier(points[0], points[1], points[2], points[3])
        for step in 0...200 {
            let x = Double(step) / 200
            #expect(abs(curve.value(at: x) - x) < 1e-8)
        }
    }

    @Test("overshooting curves leave [0, 1] where CSS says they do")
    func overshoot() {
        let back = CubicBezier(0.68, -0.55, 0.265, 1.55)
        #expect(back.value(at: 0.1) < 0)
        #expect(back.value(at: 0.9) > 1)
    }
}
