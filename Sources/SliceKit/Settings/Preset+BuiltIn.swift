// The presets compiled into the binary, so the tool works where no presets folder can be
// found. presets/*.json in the repository hold the same presets, byte for byte what
// `slicevid presets show NAME` prints; PresetFileTests keeps the two in step.

extension Preset {
    /// The seed transition, exactly: 1920x1080, 30 fps, 1 s hold, 1 s UIKit spring (ζ 0.8),
    /// 75 vertical strips travelling 1–4 frame heights.
    package static let spring = Preset(name: "spring",
                                      summary: "The original iOS transition: 75 strips, 1 s hold, 1 s spring (damping 0.8)",
                                      spec: TransitionSpec())

    /// A calmer spring: critically damped, so nothing overshoots, over 1.5 s.
    package static let gentle = preset("gentle", "A calm spring: critically damped (no overshoot) over 1.5 s") {
        $0.duration = 1.5
        $0.easing = .uikitSpring(damping: 1, velocity: 0)
    }

    /// A stiff physical spring: short hold, quick move, a small overshoot.
    package static let snappy = preset("snappy", "A quick physical spring (stiffness 300, damping 24): 0.5 s hold, 0.7 s move") {
        $0.hold = 0.5
        $0.duration = 0.7
        $0.easing = .physicalSpring(PhysicalSpring(stiffness: 300, damping: 24, mass: 1))
    }

    /// CSS `ease-in-out`: no overshoot at all.
    package static let smooth = preset("smooth", "CSS ease-in-out over 1.2 s: a plain slide, no overshoot") {
        $0.duration = 1.2
        $0.easing = .cubicBezier(.easeInOut)
    }

    /// Penner's `ease-out-bounce`.
    package static let bounce = preset("bounce", "Strips land and bounce (ease-out-bounce) over 1.2 s") {
        $0.duration = 1.2
        $0.easing = .penner(PennerCurve(.bounce, .out))
    }

    /// Horizontal bands moving left and right, 24 px tall at any frame size.
    package static let horizontal = preset("horizontal", "Horizontal 24 px bands sliding left and right, seed spring") {
        $0.direction = .horizontal
        $0.division = .width(pixels: 24)
    }

    /// A staggered wave with motion blur.
    package static let wave = preset("wave", "A left-to-right wave: strips start 10 ms apart (ease-in-out-cubic), 4-sample motion blur") {
        $0.duration = 0.8
        $0.easing = .penner(PennerCurve(.cubic, .inOut))
        $0.stagger = 0.01
        $0.motionBlur = 4
    }

    /// 9:16 for stories and reels.
    package static let story = preset("story", "Vertical 9:16 story or reel (1080x1920), the original transition") {
        $0.width = 1080
        $0.height = 1920
    }

    /// 1:1 for feed posts.
    package static let square = preset("square", "Square 1:1 post (1080x1080), the original transition") {
        $0.width = 1080
        $0.height = 1080
    }

    /// Small and quick, to check a look before the full render.
    package static let preview = preset("preview", "Small and quick to check a look: 480x270 at 15 fps, the original timing") {
        $0.width = 480
        $0.height = 270
        $0.frameRate = FrameRate(15)
    }

    /// Presets compiled into the binary, in the order `slicevid presets` lists them.
    package static let builtIn: [Preset] = [.spring, .gentle, .snappy, .smooth, .bounce, .horizontal, .wave, .story, .square, .preview]

    /// A preset that differs from the seed in the fields `change` sets.
    private static func preset(_ name: String, _ summary: String, _ change: (inout TransitionSpec) -> Void) -> Preset {
        var spec = TransitionSpec()
        change(&spec)
        return Preset(name: name, summary: summary, spec: spec)
    }
}
