// The easing text forms: every curve prints as text the parser reads back to the same curve,
// and refused text says what is accepted.

import Testing
@testable import SliceKit

@Suite struct EasingVocabularyParsingTests {
    static let samples: [String] = Easing.namedCurves.map(\.name) + [
        "cubic-bezier(0.4,0,0.2,1)", "cubic-bezier(0.34,1.56,0.64,1)",
        "spring(damping: 0.6, velocity: 0)", "spring(damping: 1, velocity: 2.5)",
        "spring(stiffness: 100, damping: 10, mass: 1)", "spring(stiffness: 170, damping: 26, mass: 1)",
        "spring(stiffness: 300, damping: 24, mass: 0.5)",
    ]

    @Test(arguments: samples)
    func descriptionRoundTrips(text: String) throws {
        let easing = try Easing(parsing: text)
        #expect(easing.description == text)
        #expect(try Easing(parsing: easing.description) == easing)
    }

    @Test func theTwoSpringsAreToldApartByStiffness() throws {
        #expect(try Easing(parsing: "spring") == .uikitSpring(damping: 0.8, velocity: 0))
        #expect(try Easing(parsing: "spring()") == .uikitSpring(damping: 0.8, velocity: 0))
        #expect(try Easing(parsing: "spring(damping: 0.5)") == .uikitSpring(damping: 0.5, velocity: 0))
        #expect(try Easing(parsing: "Spring(Stiffness: 200, damping: 15)")
                == .physicalSpring(PhysicalSpring(stiffness: 200, damping: 15, mass: 1)))
        #expect(try Easing(parsing: "spring(damping: 0.8, velocity: 0)").description == "spring")
        #expect(Easing.namedCurves.count == 36)
    }

    /// Each refusal names the problem and what would be accepted.
    @Test(arguments: [
        ("wobble", "unknown easing; accepted: linear, ease"),
        ("bounce-out", "did you mean ease-out-bounce?"),
        ("easeInOutCubic", "did you mean ease-in-out-cubic?"),
        ("spring(damping: 1.7)", "spring damping 1.7 is out of range 0.01…1 (for a physical spring give stiffness:"),
        ("spring(damping: 0)", "spring damping 0 is out of range 0.01…1"),
        ("spring(velocity: 500)", "spring velocity 500 is out of range -100…100"),
        ("spring(mass: 2)", "a physical spring needs stiffness:"),
        ("spring(stiffness: 0)", "spring stiffness 0 is out of range 0.01…10000"),
        ("spring(stiffness: 100, damping: -1)", "spring damping -1 is out of range 0.01…10000"),
        ("spring(stiffness: 100, mass: 0.001)", "spring mass 0.001 is out of range 0.01…10000"),
        ("spring(stiffness: 100, velocity: 1)", "a physical spring takes stiffness:, damping: and mass:, not velocity:"),
        ("spring(damping: 0.5, damping: 0.6)", "spring takes each labelled value once"),
        ("spring(0.5)", "spring takes each labelled value once"),
        ("cubic-bezier(1.2,0,0.5,1)", "cubic-bezier x1 and x2 must be in [0, 1]"),
        ("cubic-bezier(0.1,0.2,0.3)", "cubic-bezier takes four numbers x1,y1,x2,y2"),
        ("cubic-bezier(0.1,,0.3,1)", "'' is not a number"),
        // Bounded y keeps every strip's overshoot bounded; 1e20 once trapped mid-render.
        ("cubic-bezier(0,1e20,1,0)", "cubic-bezier y1 and y2 must be in [-10, 10]"),
        ("cubic-bezier(0,0,1,-10.5)", "cubic-bezier y1 and y2 must be in [-10, 10]"),
        // Plain decimals only: Swift's Double() reads hexadecimal and "infinity".
        ("cubic-bezier(0,0x1p3,1,0)", "'0x1p3' is not a number"),
        ("spring(damping: inf)", "'damping: inf' is not a number"),
        ("spring(damping: nan)", "'damping: nan' is not a number"),
    ])
    func refusalsSayWhatIsAccepted(text: String, reason: String) {
        #expect(throws: EasingParseError.self) { try Easing(parsing: text) }
        do {
            _ = try Easing(parsing: text)
        } catch {
            #expect(error.description.contains(reason), "\(error.description)")
            #expect(error.description.hasSuffix("(got '\(text)')"))
        }
    }

    @Test func acceptedFormsListEveryFamilyAndMode() {
        for family in PennerCurve.Family.allCases { #expect(Easing.acceptedForms.contains(family.rawValue)) }
        #expect(Easing.acceptedForms.contains("ease-{in,out,in-out}-"))
        #expect(Easing.acceptedForms.contains("spring(stiffness: 100, damping: 10, mass: 1)"))
    }
}
