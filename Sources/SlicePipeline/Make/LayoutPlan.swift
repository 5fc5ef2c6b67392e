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
    /// The interface checked, if any.
    package let safeZone: SafeZone?
    /// Font files every text layer may use, before its own and the default set.
    package let fonts: [String]
    /// SHA-256 (hex) of each font file (`fontFiles`) as the plan read and checked it: the text
    /// engine refuses a font whose bytes are no longer these.
    package var fontDigests: [String: String] = [:]

    /// The layers on the still at `index` of `count`, in drawing order.
    package func cardLayers(of index: Int, count: Int) -> [Layer] {
        layers.filter { layer in
            if case .card(let card) = layer.placement { return card.includes(index, of: count) }
            return false
        }
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
        return files
    }

    /// Resolves `layout` for `width` × `height` frames of `stills` stills.
    /// - Parameters:
    ///   - variables: values for the placeholders.
    ///   - safeZone: the interface checked.
    /// - Throws: `SlicevidError(.usage)` naming the layout, the layer and what is wrong: a
    ///   placeholder without a value, a still index the clip does not have, a layer reaching
    ///   into the safe zone.
    package static func resolve(_ layout: Layout, width: Int, height: Int, stills: Int, variables: [String: String],
                                safeZone: SafeZone?) throws(SlicevidError) -> LayoutPlan {
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
            if let safeZone, let intrusion = safeZone.intrusions(of: box, width: width, height: height).max(by: { $0.pixels < $1.pixels }) {
                let edge = intrusion.edge
                throw refusal("its box (\(box)) reaches \(intrusion.pixels) px into \(safeZone.displayName)'s \(edge.rawValue) interface (\(safeZone.covers(edge)), \(safeZone.inset(edge, width: width, height: height)) px at \(width)x\(height)); move it clear, or choose another \(setting: .safeZone)")
            }
            func filled(_ template: String) throws(SlicevidError) -> String {
                do {
                    return try Placeholders.fill(template, values: variables)
                } catch .missing(let name) {
                    throw refusal("{\(name)} has no value; give one with \(setting: .variable(name))")
                } catch {
                    throw refusal("\(template) cannot be filled")
                }
            }
            let content: Content
            switch layer.content {
            case .text(var text):
                text.template = try filled(text.template)
                text.size = switch text.size {
                case .pixels(let size): .pixels(size * scale)
                case .auto(let low, let high): .auto(min: low * scale, max: high * scale)
                }
                text.plate?.padding *= scale
                text.plate?.radius *= scale
                text.outline?.width *= scale
                if let shadow = text.shadow {
                    text.shadow = Layout.Text.Shadow(x: shadow.x * scale, y: shadow.y * scale, blur: shadow.blur * scale, color: shadow.color)
                }
                content = .text(text)
            case .image(let path):
                content = .image(try filled(path))
            }
            layers.append(Layer(name: layer.name, placement: layer.placement, box: box, content: content))
        }
        return LayoutPlan(file: layout.file, layers: layers, variant: chosen.variant, safeZone: safeZone, fonts: layout.fonts)
    }
}
