// A layout's layers drawn once per render: text through the text engine (Pango, HarfBuzz, the
// layout's fonts then the default set), images fitted in their boxes, each a premultiplied
// 16-bit picture of exactly its box — made once, then printed on cards and laid over frames.

import SliceKit
import SliceMedia

/// The layers of a render, drawn.
package struct LayerPictures: Sendable {
    /// One drawn layer and where it goes.
    package struct Picture: @unchecked Sendable {
        // RGBA16Image is a class whose pixels are written once, here, and only read afterwards.
        package let layer: LayoutPlan.Layer
        package let image: RGBA16Image
        /// The em size a text layer was set at, in the frame's pixels (the one `auto` chose).
        package var size: Double? = nil
        /// What a typewriter, word or line entrance uncovers one unit at a time (text layers
        /// with such an entrance only).
        package var units: RevealUnits? = nil
    }

    package let pictures: [Picture]

    /// The pictures printed on the still at `index` of `count`.
    package func card(_ index: Int, of count: Int) -> [Picture] {
        pictures.filter { picture in
            if case .card(let card) = picture.layer.placement { return card.includes(index, of: count) }
            return false
        }
    }

    /// The pictures laid over every frame, with their timing.
    package var over: [(picture: Picture, timing: Layout.Timing)] {
        pictures.compactMap { picture in
            if case .over(let timing) = picture.layer.placement { return (picture, timing) }
            return nil
        }
    }
}

extension LayoutPlan {
    /// Draws every layer: text set in its box, images fitted in theirs.
    /// - Parameter isCancelled: polled while an image decodes.
    /// - Throws: `SlicevidError` naming the layout and the layer: a character no font draws,
    ///   text that does not fit, a font that is not a font (65), a missing font or image (66),
    ///   Pango not installed (69).
    package func draw(isCancelled: @escaping @Sendable () -> Bool = { false }) throws(SlicevidError) -> LayerPictures {
        var pictures: [LayerPictures.Picture] = []
        for layer in layers {
            var image: RGBA16Image
            var size: Double?
            var units: RevealUnits?
            do throws(MediaError) {
                switch layer.content {
                case .text(let text):
                    do {
                        let engineLayer = textLayer(text, for: layer)
                        let rendered = try TextRenderer.render(engineLayer)
                        image = rendered.picture
                        size = rendered.size
                        if case .over(let timing) = layer.placement, let entrance = timing.entrance, case .reveal = entrance.effect {
                            units = RevealUnits(text: engineLayer.text, glyphs: rendered.glyphs, width: image.width, height: image.height)
                        }
                        // The scrim goes under the words, in the layer's own picture.
                        if let scrim = text.scrim {
                            let shade = scrim.picture(width: image.width, height: image.height)
                            shade.compose(image, x: 0, y: 0, alphaForm: .premultiplied)
                            image = shade
                        }
                    } catch {
                        throw error.mediaError
                    }
                case .image(let path):
                    image = try StillDecoder.loadInBox(path: path, width: layer.box.width, height: layer.box.height, isCancelled: isCancelled)
                }
            } catch {
                // The engine names the layer by itself; the layout's own name for it is used instead.
                let suffix = " (layer \(InputText.quoted(layer.name)))"
                let message = error.message.hasSuffix(suffix) ? String(error.message.dropLast(suffix.count)) : error.message
                let named = error.subject.hasPrefix("layer ") ? MediaError(error.kind, subject: layer.name, message: message)
                                                              : MediaError(error.kind, subject: "\(layer.name): \(error.subject)", message: message)
                throw SlicevidError(named).prefixed("\(setting: .layout) \(InputText.quoted(file)): ")
            }
            pictures.append(LayerPictures.Picture(layer: layer, image: image, size: size, units: units))
        }
        return LayerPictures(pictures: pictures)
    }

    /// The SHA-256 of each font file, read, checked and kept in memory (`FontStore`).
    /// - Parameter expected: digests a batch's survey read: a font whose bytes differ now
    ///   changed mid-run.
    /// - Throws: `MediaError` naming the font: not a font, over a limit, damaged (65), changed
    ///   (65), missing (66).
    static func fontDigests(_ files: [String], expected: [String: String]) throws(MediaError) -> [String: String] {
        var digests: [String: String] = [:]
        for file in files {
            do throws(TextError) {
                let font = try FontStore.load(file)
                if let wanted = expected[file], wanted != font.digest {
                    throw TextError(.fontChanged, subject: "font \(InputText.quoted(file))",
                                    message: "changed while the run used it: its bytes are not the ones the run checked; run again once it is final")
                }
                digests[file] = font.digest
            } catch {
                throw error.mediaError
            }
        }
        return digests
    }

    /// The text engine's layer for `text`, in `layer`'s box: its own fonts first, then the
    /// layout's (the engine adds the default set after them).
    func textLayer(_ text: Layout.Text, for layer: Layer) -> TextLayer {
        let size: TextLayer.Size = switch text.size {
        case .pixels(let pixels): .pixels(pixels)
        case .auto(let low, let high): .auto(min: low, max: high)
        }
        let alignment: TextLayer.Alignment = switch text.align {
        case .start: .start
        case .centre: .centre
        case .end: .end
        }
        let vertical: TextLayer.VerticalAlignment = switch text.verticalAlign {
        case .top: .top
        case .centre: .centre
        case .bottom: .bottom
        }
        var engineLayer = TextLayer(name: layer.name, text: Layout.joiningNumbersAndUnits(text.template), width: layer.box.width, height: layer.box.height, size: size,
                         fonts: text.fonts + fonts.filter { !text.fonts.contains($0) }, family: text.family, weight: text.weight,
                         wrap: text.wrap, maxLines: text.maxLines, alignment: alignment, verticalAlignment: vertical,
                         lineHeight: text.lineHeight, color: text.color,
                         plate: text.plate.map { TextLayer.Plate(color: $0.color, padding: $0.padding, radius: $0.radius) },
                         outline: text.outline.map { TextLayer.Outline(width: $0.width, color: $0.color) },
                         shadow: text.shadow.map { TextLayer.Shadow(x: $0.x, y: $0.y, blur: $0.blur, color: $0.color) },
                         ellipsis: text.ellipsis, language: text.language)
        engineLayer.fontDigests = fontDigests
        return engineLayer
    }
}
