// A layer placed `on` a card flies with the card's strips: drawn onto the still before it is
// cut, it is cut and moved with each strip mid-transition, and whole once the card has landed.

import SliceKit
import SliceMedia
import Testing
@testable import SlicePipeline

@Suite("Card layers in the render")
struct CardLayerRenderTests {
    static let magenta = RGBAColor(red: 230, green: 20, blue: 200)
    static let cyan = RGBAColor(red: 20, green: 230, blue: 240)

    static func spec() -> TransitionSpec {
        var spec = TransitionSpec()
        spec.width = 64
        spec.height = 36
        spec.strips = 8
        spec.easing = .linear
        spec.hold = 1
        spec.duration = 1
        return spec
    }

    /// An opaque `colour` layer, premultiplied.
    static func layer(_ colour: RGBAColor, width: Int, height: Int) -> RGBA16Image {
        RGBA16Image(expanding: RGBAImage(width: width, height: height, color: colour), alpha: true)
    }

    /// The colour of frame pixel (`x`, `y`) of a gbrp picture.
    static func colour(_ image: PlanarImage, _ x: Int, _ y: Int) -> RGBAColor {
        RGBAColor(red: UInt8(image.sample(plane: 2, x: x, y: y)), green: UInt8(image.sample(plane: 0, x: x, y: y)),
                  blue: UInt8(image.sample(plane: 1, x: x, y: y)))
    }

    @Test("mid-transition the layer on the outgoing card is cut with its strips and moved with each; the incoming card's layer is whole once it lands")
    func layerFliesWithItsStrips() throws {
        let spec = Self.spec()
        // Demo cards (no files), with a 24 × 8 magenta box at (20, 14) on the first and a cyan one at (8, 4) on the second.
        let source = try StillLoader.load(nil, role: .outgoing, spec: spec, focus: .centre, layout: .gbrp,
                                          layers: [CardLayer(picture: Self.layer(Self.magenta, width: 24, height: 8), x: 20, y: 14)],
                                          cancellation: Cancellation())
        let destination = try StillLoader.load(nil, role: .incoming, spec: spec, focus: .centre, layout: .gbrp,
                                               layers: [CardLayer(picture: Self.layer(Self.cyan, width: 24, height: 8), x: 8, y: 4)],
                                               cancellation: Cancellation())
        let plan = FramePlan(spec: spec)
        let compositor = Compositor(plan: plan, source: source, destination: destination)
        // 0.2 s into the motion: the outgoing strips have moved a fifth of their travel, the
        // incoming ones are still mostly below or above the frame.
        let index = 36
        guard case .strips(let outgoing, let incoming) = plan.content(ofFrame: index) else {
            Issue.record("frame \(index) is not mid-transition")
            return
        }
        let frame = PlanarImage(width: 64, height: 36, layout: .gbrp)
        compositor.render(frame: index, into: frame)

        var checked = 0, shifts = Set<Int>()
        for x in 20..<44 {
            let strip = (0..<plan.layout.count).last { plan.layout.boundary($0, extent: 64) <= x }!
            let moved = Int(outgoing[strip].rounded()), arriving = Int(incoming[strip].rounded())
            shifts.insert(moved)
            for y in 14..<22 {
                let shown = y + moved
                // Where the incoming strip lies over it, or the row left the frame, there is nothing to see.
                guard (0..<36).contains(shown), !(arriving..<(arriving + 36)).contains(shown) else { continue }
                #expect(Self.colour(frame, x, shown) == Self.magenta, "column \(x) (strip \(strip), moved \(moved)), layer row \(y)")
                checked += 1
            }
        }
        #expect(shifts.count >= 3 && shifts.allSatisfy { $0 != 0 }, "the layer spans strips that moved apart: \(shifts)")
        #expect(checked >= 24 * 4, "\(checked) layer pixels followed their strips")

        // The last frame is the destination, landed: its layer is whole where it was placed.
        compositor.render(frame: plan.frameCount - 1, into: frame)
        for y in 0..<36 {
            for x in 0..<64 where (8..<32).contains(x) && (4..<12).contains(y) {
                #expect(Self.colour(frame, x, y) == Self.cyan, "(\(x), \(y))")
            }
        }
        #expect(Self.colour(frame, 7, 4) != Self.cyan && Self.colour(frame, 32, 11) != Self.cyan)
    }
}
