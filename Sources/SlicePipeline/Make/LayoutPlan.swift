// A layout resolved for one render: the variant for the frame's aspect chosen, every layer's box
// in pixels, its text filled with the variables and its lengths scaled to the frame, images'
// paths filled, the safe zone checked. Done when the request is planned, before anything is
// decoded or drawn, so a missing variable or a layer under a platform's buttons is refused (64)
// by `--dry-run`, `--check` and `--plan` as by a run.

import Foundation
import SliceKit
import SliceMedia

/// The layers one render draws, in pixels of its frame.
package struct LayoutPlan: Sendable, Equatable {
    /// One layer, resolved.
    package struct Layer: Sendable, Equatable {
        package let name: String
        package let placement: Layout.Placement
        package let box: PixelBox
        package let content: Content
    }

    /// What a resolved layer draws.
    package enum Content: Sendable, Equatable {
        /// Its text with the variables filled; lengths in the frame's pixels.
        case text(Layout.Text)
        /// The image file's absolute path, its placeholders filled.
        case image(String)
    }

    /// The layout file, as named.
    package let file: String
    package let layers: [Layer]
    /// The aspect variant drawn, when the layout has variants.
    package let variant: Layout.Aspect?
    /// The interfaces checked, each of them.
    package let safeZones: [SafeZone]
    /// Font files every text layer may use, before its own and the default set.
    package let fonts: [String]
    /// SHA-256 (hex) of each font file (`fontFiles`) as the plan read and checked it: the text
    /// engine refuses a font whose bytes are no longer these.
    package var fontDigests: [String: String] = [:]
    /// Each over layer's timeline on this clip, in drawing order (`scheduled(on:)`).
    package var schedules: [LayerSchedule] = []
    /// What the layout's text keeps to stay readable.
    package var readability = Layout.Readability()
    /// The brand file the layout imports: its bytes are part of the jobs' fingerprints.
    package var brand: String?
    /// The frame size it was resolved for.
    package var frameWidth = 0, frameHeight = 0

    /// The layers on the still at `index` of `count`, in drawing order.
    package func cardLayers(of index: Int, count: Int) -> [Layer] {
        layers.filter { layer in
            if case .card(let card) = layer.placement { return card.includes(index, of: count) }
            return false
        }
    }

    /// Whether some layer is printed on a card (the stills' decode then waits for the layers).
    package var printsOnCards: Bool {
        layers.contains { if case .card = $0.placement { true } else { false } }
    }

    /// The layers drawn over the frames, in drawing order.
    package var overLayers: [Layer] {
        layers.filter { if case .over = $0.placement { true } else { false } }
    }

    /// Every font file the text layers use: the layout's, then each layer's own.
    package var fontFiles: [String] {
        var files = fonts
        for layer in layers {
            if case .text(let text) = layer.content { files += text.fonts.filter { !files.contains($0) } }
        }
        return files
    }

    /// Every file the layers read: fonts and images, for checks and fingerprints.
    package var files: [String] {
        var files = fonts
        for layer in layers {
            switch layer.content {
            case .text(let text): files += text.fonts.filter { !files.contains($0) }
            case .image(let path): if !files.contains(path) { files.append(path) }
            }
        }
        if let brand, !files.contains(brand) { files.append(brand) }
        return files
    }

    /// Resolves `layout` for `width` × `height` frames of `stills` stills.
    /// - Parameters:
    ///   - variables: values for the placeholders.
    ///   - safeZones: the interfaces checked, each of them.
    /// - Throws: `SlicevidError(.usage)` naming the layout, the layer and what is wrong: a
    ///   placeholder without a value, a still index the clip does not have, a layer reaching
    ///   into the safe zone.
    package static func resolve(_ layout: Layout, width: Int, height: Int, stills: Int, variables: [String: String],
                                safeZones: [SafeZone]) throws(SlicevidError) -> LayoutPlan {
        let chosen = layout.layers(forWidth: width, height: height)
        // Pixels at 1080p, scaled by the frame's shorter side: 1080 in 1920x1080 and 1080x1920.
        let scale = Double(min(width, height)) / 1080
        var layers: [Layer] = []
        for layer in chosen.layers {
            func refusal(_ message: ErrorText) -> SlicevidError {
                SlicevidError(.usage, "\(setting: .layout) \(InputText.quoted(layout.file)): \(layer.name): \(message)")
            }
            if case .card(.still(let index)) = layer.placement, index >= stills {
                throw refusal("is on still \(index), but the clip has \(stills) stills (0…\(stills - 1))")
            }
            let box = layer.box.pixels(frameWidth: width, frameHeight: height)
            // Each zone checked; the first the box reaches into is named.
            for safeZone in safeZones {
                guard let intrusion = safeZone.intrusions(of: box, width: width, height: height).max(by: { $0.pixels < $1.pixels }) else { continue }
                let edge = intrusion.edge
                throw refusal("its box (\(box)) reaches \(intrusion.pixels) px into \(SafeZone.possessive([safeZone])) \(edge.rawValue) interface (\(safeZone.covers(edge)), \(safeZone.inset(edge, width: width, height: height)) px at \(width)x\(height)); move it clear\(safeZones.count > 1 ? " of all \(safeZones.count) (\(safeZones.map(\.rawValue).joined(separator: ", ")))" : ""), or choose another \(setting: .safeZone)")
            }
            // One filler for text and paths; a value placed in an image's path is held to the
            // path rule, so a variable cannot reach a picture outside the layout's folders.
            func filled(_ template: String, path: Bool) throws(SlicevidError) -> String {
                do {
                    return path ? try Placeholders.fill(path: template, values: variables) : try Placeholders.fill(template, values: variables)
                } catch .missing(let name) {
                    throw refusal("{\(InputText.excerpt(name))} has no value; give one with \(setting: .variable(name))")
                } catch .noLocale(let placeholder) {
                    throw refusal("\(path ? "image" : "text"): \(InputText.excerpt(placeholder)) writes its value for a locale; give one with \(setting: .variable(Placeholders.localeName)) (de-DE, en-IE)")
                } catch {
                    throw refusal("\(path ? "image" : "text"): \(Placeholders.problem(error))")
                }
            }
            let content: Content
            switch layer.content {
            case .text(var text):
                text.template = try filled(text.template, path: false)
                // Values make the text long, not the layout: held to the layout's own limit.
                guard text.template.utf8.count <= Layout.maximumTextBytes else {
                    throw refusal("text: is \(text.template.utf8.count) bytes with its variables filled; at most \(Layout.maximumTextBytes)")
                }
                // A variable's value is part of the text: a control character in it is the
                // same mistake as one in the layout file.
                if let character = Layout.forbiddenCharacter(in: text.template) {
                    throw refusal("its text \(InputText.quoted(text.template)) holds the control character \(Layout.characterName(character)) (from a variable); text takes \\n for a line break and no other control characters")
                }
                content = .text(try scaled(text, by: scale, frame: "\(width)x\(height)", refusal: refusal))
            case .image(let path):
                content = .image(try filled(path, path: true))
            }
            layers.append(Layer(name: layer.name, placement: layer.placement, box: box, content: content))
        }
        var plan = LayoutPlan(file: layout.file, layers: layers, variant: chosen.variant, safeZones: safeZones, fonts: layout.fonts)
        plan.readability = layout.readability
        plan.brand = layout.brand
        (plan.frameWidth, plan.frameHeight) = (width, height)
        return plan
    }

    /// `text`'s lengths (pixels at 1080p) in the frame's pixels, within what the text engine
    /// draws (`TextLayer`'s limits): an `auto` size is kept inside them, a fixed size, an
    /// outline or a blur that falls outside at this frame size is refused, with its numbers
    /// rounded to a tenth of a pixel.
    /// - Parameter frame: `1920x1080`, for messages.
    private static func scaled(_ text: Layout.Text, by scale: Double, frame: String,
                               refusal: (ErrorText) -> SlicevidError) throws(SlicevidError) -> Layout.Text {
        var text = text
        let largest = TextLayer.maxSize
        func px(_ value: Double) -> String { UnitText.pixels(value) }
        switch text.size {
        case .pixels(let size):
            let pixels = size * scale
            guard pixels >= 1, pixels <= largest else {
                let bound = pixels < 1 ? "less than the 1 px" : "more than the \(px(largest)) px"
                let fix = pixels < 1 ? "at least \(px((1 / scale * 10).rounded(.up) / 10))" : "at most \(px((largest / scale * 10).rounded(.down) / 10))"
                throw refusal("size \(px(size)) (pixels at 1080p) is \(px(pixels)) px at \(frame), \(bound) a text can be; give it a size of \(fix) for this frame size")
            }
            text.size = .pixels(pixels)
        case .auto(let low, let high):
            // The largest size that fits, between bounds the engine can draw at this frame size.
            let (least, most) = (max(1, low * scale), min(largest, high * scale))
            guard least <= most else {
                throw refusal("size auto up to \(px(high)) (pixels at 1080p) is at most \(px(high * scale)) px at \(frame), less than the 1 px a text can be; give it a larger max-size")
            }
            text.size = .auto(min: least, max: most)
        }
        if var plate = text.plate {
            plate.padding *= scale
            // A radius past half the plate's side rounds nothing more.
            plate.radius = min(largest, plate.radius * scale)
            text.plate = plate
        }
        if let outline = text.outline {
            let width = outline.width * scale
            guard width <= TextLayer.maxOutline else {
                throw refusal("outline width \(px(outline.width)) (pixels at 1080p) is \(px(width)) px at \(frame), more than the \(px(TextLayer.maxOutline)) px an outline can be")
            }
            text.outline?.width = width
        }
        if let shadow = text.shadow {
            let blur = shadow.blur * scale
            guard blur <= TextLayer.maxBlur else {
                throw refusal("shadow blur \(px(shadow.blur)) (pixels at 1080p) is \(px(blur)) px at \(frame), more than the \(px(TextLayer.maxBlur)) px a blur can be")
            }
            text.shadow = Layout.Text.Shadow(x: shadow.x * scale, y: shadow.y * scale, blur: blur, color: shadow.color)
        }
        return text
    }
}
