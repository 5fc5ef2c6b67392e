// Alpha done right for scaled stills: colour is multiplied by alpha before scaling, so a fully
// transparent pixel (whatever colour it stores) adds nothing to its neighbours, and divided
// again only for outputs that keep alpha. Opaque outputs composite the premultiplied picture
// over the background instead. Then the still is placed on the frame-sized canvas.

extension RGBA16Image {
    /// Multiplies R, G and B by alpha (rounded). Does nothing without alpha.
    package func premultiply() {
        guard hasAlpha else { return }
        for y in 0..<height {
            let alpha = row(3, y)
            for c in 0..<3 {
                let colour = row(c, y)
                for x in 0..<width {
                    colour[x] = UInt16(truncatingIfNeeded: (UInt32(colour[x]) &* UInt32(alpha[x]) &+ 32767) / 65535)
                }
            }
        }
    }

    /// Caps R, G and B at alpha: scaling filters ring, and a premultiplied colour brighter than
    /// its alpha would un-premultiply past white.
    package func clampColourToAlpha() {
        guard hasAlpha else { return }
        for y in 0..<height {
            let alpha = row(3, y)
            for c in 0..<3 {
                let colour = row(c, y)
                for x in 0..<width where colour[x] > alpha[x] { colour[x] = alpha[x] }
            }
        }
    }

    /// Divides premultiplied R, G and B by alpha again (rounded); fully transparent pixels
    /// become transparent black, so no colour hides under alpha 0.
    package func unpremultiply() {
        guard hasAlpha else { return }
        for y in 0..<height {
            let alpha = row(3, y)
            for c in 0..<3 {
                let colour = row(c, y)
                for x in 0..<width where alpha[x] < 65535 {
                    let a = UInt32(alpha[x])
                    colour[x] = a == 0 ? 0 : UInt16(min(65535, (UInt32(colour[x]) &* 65535 &+ a / 2) / a))
                }
            }
        }
    }

    /// This premultiplied picture over an opaque `background` ("source over"): opaque.
    package func composited(over background: RGBAColor) -> RGBA16Image {
        let result = RGBA16Image(width: width, height: height, hasAlpha: false)
        let fill = [background.red, background.green, background.blue].map { UInt32($0) * 257 }
        for y in 0..<height {
            let alpha = hasAlpha ? row(3, y) : nil
            for c in 0..<3 {
                let from = row(c, y), to = result.row(c, y)
                guard let alpha else { to.update(from: from, count: width); continue }
                for x in 0..<width {
                    let under = (fill[c] &* (65535 &- UInt32(alpha[x])) &+ 32767) / 65535
                    to[x] = UInt16(min(65535, UInt32(from[x]) &+ under))
                }
            }
        }
        return result
    }

    /// This premultiplied picture placed centred on a `canvasWidth` × `canvasHeight` canvas of
    /// `background`, as `RGBAImage.centred` places 8-bit ones: parts that stick out are cut
    /// (cover), uncovered parts show the background (contain). Over an opaque background the
    /// picture is composited and the result is opaque; over a translucent one it is
    /// un-premultiplied and copied as it is (its alpha replaces the background's).
    package func placed(onCanvasWidth canvasWidth: Int, height canvasHeight: Int, background: RGBAColor) -> RGBA16Image {
        let opaque = background.alpha == 255
        let picture: RGBA16Image
        if opaque {
            picture = composited(over: background)
        } else {
            unpremultiply()
            picture = self
        }
        // Without an alpha plane a picture is opaque wherever it lands.
        if canvasWidth == width && canvasHeight == height { return picture }
        let canvas = RGBA16Image(width: canvasWidth, height: canvasHeight, hasAlpha: !opaque)
        let fill = [background.red, background.green, background.blue, background.alpha].map { UInt16($0) * 257 }
        for c in 0..<canvas.planes.count {
            for y in 0..<canvasHeight { canvas.row(c, y).update(repeating: fill[c], count: canvasWidth) }
        }
        let offsetX = (canvasWidth - width) / 2, offsetY = (canvasHeight - height) / 2
        let x0 = max(0, offsetX), x1 = min(canvasWidth, offsetX + width)
        let y0 = max(0, offsetY), y1 = min(canvasHeight, offsetY + height)
        guard x0 < x1, y0 < y1 else { return canvas }
        for c in 0..<canvas.planes.count {
            for y in y0..<y1 {
                let to = canvas.row(c, y) + x0
                if c < picture.planes.count {
                    to.update(from: picture.row(c, y - offsetY) + (x0 - offsetX), count: x1 - x0)
                } else {
                    to.update(repeating: 65535, count: x1 - x0)
                }
            }
        }
        return canvas
    }
}
