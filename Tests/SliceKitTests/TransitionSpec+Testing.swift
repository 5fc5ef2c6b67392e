// A spec that differs from the defaults in every field, for round-trip tests: a field that
// is lost on the way shows up as a difference.

import SliceKit

extension TransitionSpec {
    static var allFieldsChanged: TransitionSpec {
        var spec = TransitionSpec()
        spec.width = 1080; spec.height = 1350
        spec.frameRate = FrameRate(30000, 1001)
        spec.hold = 0.25
        spec.duration = 1.5
        spec.endHold = 0.75
        spec.strips = 48
        spec.direction = .horizontal
        spec.travel = 0.5...3.75
        spec.easing = .uikitSpring(damping: 0.6, velocity: 1)
        spec.seed = 7
        spec.background = RGBAColor(red: 1, green: 2, blue: 3)
        spec.fit = .contain
        spec.focus = Focus(x: 0.25, y: 1)!
        spec.stagger = 0.02
        spec.motionBlur = 4
        spec.motion = StillMotion(kind: .panLeft, amount: 0.25, easing: .cubicBezier(.easeInOut))
        return spec
    }
}
