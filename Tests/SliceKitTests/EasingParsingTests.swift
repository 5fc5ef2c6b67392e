// The text form of easings, shared by `--easing` and preset files: what is accepted, what is
// printed back, and what a user is told when they mistype.

import Testing
import SliceKit

@Suite("Easing parsing")
struct EasingParsingTests {
    @Test("every named curve parses to its curve", arguments: [
        ("spring", Easing.uikitSpring(damping: 0.8, velocity: 0)),
        ("linear", .linear),
        ("ease", .cubicBezier(CubicBezier(0.25, 0.1, 0.25, 1))),
        ("ease-in", .cubicBezier(CubicBezier(0.42, 0, 1, 1))),
        ("ease-out", .cubicBezier(CubicBezier(0, 0, 0.58, 1))),
        ("ease-in-out", .cubicBezier(CubicBezier(0.42, 0, 0.58, 1))),
    ])
    func namedCurves(name: String, expected: Easing) throws {
        #expect(try Easing(parsing: name) == expected)
        #expect(try Easing(parsing: "  \(name.uppercased()) ") == expected)
        #expect(expected.description == name)
    }

    @Test("the named list is the one --help shows")
    func namedListIsComplete() {
        #expect(Array(Easing.namedCurves.map(\.name).prefix(6)) == ["spring", "linear", "ease", "ease-in", "ease-out", "ease-in-out"])
        #expect(Easing.namedCurves.count == 6 + 30, "the CSS names plus 10 Penner families × in/out/in-out")
    }

    @Test("cubic-bezier(x1,y1,x2,y2) with or without spaces")
    func cubicBezier() throws {
        let expected = Easing.cubicBezier(CubicBezier(0.4, 0, 0.2, 1))
        #expect(try Easing(parsing: "cubic-bezier(0.4,0,0.2,1)") == expected)
        #expect(try Easing(parsing: "cubic-bezier( 0.4 , 0 , 0.2 , 1 )") == expected)
        #expect(try Easing(parsing: "Cubic-Bezier(.4,0,.2,1)") == expected)
        // y may leave [0, 1]: that is how CSS writes overshoot.
        #expect(try Easing(parsing: "cubic-bezier(0.68,-0.55,0.265,1.55)")
            == .cubicBezier(CubicBezier(0.68, -0.55, 0.265, 1.55)))
    }

    @Test("spring(damping:, velocity:) in any order, either optional")
    func spring() throws {
        #expect(try Easing(parsing: "spring(damping: 0.6, velocity: 1)") == .uikitSpring(damping: 0.6, velocity: 1))
        #expect(try Easing(parsing: "spring(velocity: 1, damping: 0.6)") == .uikitSpring(damping: 0.6, velocity: 1))
        #expect(try Easing(parsing: "spring(damping:0.6)") == .uikitSpring(damping: 0.6, velocity: 0))
        #expect(try Easing(parsing: "spring(velocity: -2)") == .uikitSpring(damping: 0.8, velocity: -2))
        #expect(try Easing(parsing: "spring(damping: 1)") == .uikitSpring(damping: 1, velocity: 0))
    }

    @Test("custom curves print in the form they are typed")
    func descriptions() {
        #expect(Easing.cubicBezier(CubicBezier(0.4, 0, 0.2, 1)).description == "cubic-bezier(0.4,0,0.2,1)")
        #expect(Easing.uikitSpring(damping: 0.6, velocity: 1).description == "spring(damping: 0.6, velocity: 1)")
        #expect(Easing.uikitSpring(damping: 0.8, velocity: 0).description == "spring")
    }

    @Test("description parses back to an equal easing", arguments: [
        Easing.linear, .seedSpring, .cubicBezier(.ease), .cubicBezier(.easeIn), .cubicBezier(.easeOut),
        .cubicBezier(.easeInOut), .cubicBezier(CubicBezier(0.4, 0, 0.2, 1)),
        .cubicBezier(CubicBezier(0.68, -0.55, 0.265, 1.55)), .cubicBezier(CubicBezier(0.1, 1.0 / 3, 0.9, 2.0 / 3)),
        .uikitSpring(damping: 0.6, velocity: 1), .uikitSpring(damping: 1, velocity: -3.25),
        .uikitSpring(damping: 0.123456789, velocity: 0.1),
    ])
    func roundTrip(easing: Easing) throws {
        #expect(try Easing(parsing: easing.description) == easing)
    }

    @Test("unknown names are refused with the list of accepted forms", arguments: [
        "bouncy", "", "ease-inn", "cubic(0,0,1,1)", "springy(damping: 0.5)", "spring(", "linear()x",
    ])
    func unknownNames(text: String) throws {
        let error = try #require(throws: EasingParseError.self) { try Easing(parsing: text) }
        #expect(error.text == text)
        let message = error.description
        for name in ["spring", "linear", "ease", "ease-in", "ease-out", "ease-in-out"] {
            #expect(message.contains(name))
        }
        #expect(message.contains("cubic-bezier(x1,y1,x2,y2)"))
        #expect(message.contains("spring(damping:"))
        #expect(message.contains("'\(text)'"))
    }

    @Test("cubic-bezier x1 and x2 must lie in [0, 1]", arguments: [
        "cubic-bezier(1.2,0,0.5,1)", "cubic-bezier(-0.1,0,0.5,1)", "cubic-bezier(0.2,0,1.5,1)", "cubic-bezier(0.2,0,-1,1)",
    ])
    func bezierXOutOfRange(text: String) throws {
        let error = try #require(throws: EasingParseError.self) { try Easing(parsing: text) }
        #expect(error.description.contains("x1 and x2 must be in [0, 1]"))
        #expect(error.description.contains(text))
    }

    @Test("cubic-bezier needs exactly four unlabelled numbers", arguments: [
        "cubic-bezier(0.1,0.2,0.3)", "cubic-bezier(0.1,0.2,0.3,0.4,0.5)", "cubic-bezier()", "cubic-bezier(x1: 0.1,0,0.2,1)",
    ])
    func bezierArity(text: String) throws {
        let error = try #require(throws: EasingParseError.self) { try Easing(parsing: text) }
        #expect(error.description.contains("four numbers"))
    }

    @Test("spring damping must be in [0.01, 1]", arguments: ["0", "1.7", "-0.5", "1.0001", "0.0001", "0.0099"])
    func springDampingOutOfRange(damping: String) throws {
        let text = "spring(damping: \(damping))"
        let error = try #require(throws: EasingParseError.self) { try Easing(parsing: text) }
        #expect(error.description.contains("damping"))
        #expect(error.description.contains("is out of range 0.01…1"))
    }

    @Test("spring takes labelled arguments", arguments: ["spring(0.6)"])
    func springLabels(text: String) throws {
        let error = try #require(throws: EasingParseError.self) { try Easing(parsing: text) }
        #expect(error.description.contains("damping:"))
    }

    @Test("spring velocity beyond ±100 is refused")
    func springVelocityOutOfRange() throws {
        let error = try #require(throws: EasingParseError.self) { try Easing(parsing: "spring(velocity: 250)") }
        #expect(error.description.contains("velocity"))
    }

    @Test("garbage numbers are named in the error", arguments: [
        ("cubic-bezier(a,0,1,1)", "'a'"), ("spring(damping: fast)", "'damping: fast'"),
        ("spring(damping: nan)", "'damping: nan'"), ("cubic-bezier(0.1,0,inf,1)", "'inf'"),
        ("cubic-bezier(0.1,0,0.2,1x)", "'1x'"),
    ])
    func garbageNumbers(text: String, culprit: String) throws {
        let error = try #require(throws: EasingParseError.self) { try Easing(parsing: text) }
        #expect(error.description.contains("\(culprit) is not a number"))
    }
}
