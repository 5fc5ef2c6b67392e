// Reads a still (PNG, JPEG, WebP, BMP, TIFF, GIF, HEIC, AVIF, JPEG XL, SVG) and fits it to the
// frame: turned upright, its colours converted to sRGB, cropped to what the frame shows and
// scaled with libswscale. Runs once per input, never per frame. Decoding itself, strict and
// bounded, is in StillDecoder+Decoding.swift; the 16-bit way (deep pictures, translucent
// stills) in StillDecoder+Deep.swift.

import CFFmpeg
import Foundation
import SliceKit

/// Decodes still images and fits them to the output frame.
package enum StillDecoder {
    /// The still formats this build decodes, by name ("PNG", "JPEG", …): what messages, help,
    /// the README and docs/make.md ("Stills") list.
    package static var acceptedFormats: [String] { StillHeader.Format.accepted.map(\.rawValue) }

    /// Decodes the first picture of the file at `path` and fits it to `width` × `height`.
    /// - Parameters:
    ///   - fit: `.cover` fills the frame and crops the overflow; `.contain` letterboxes.
    ///   - background: shown around a contained picture and under translucent pixels.
    ///   - focus: the point of the still cover keeps in view; the centre by default.
    ///   - isCancelled: polled while the file is read; once it says yes decoding stops.
    /// - Returns: an RGBA picture of exactly `width` × `height`, 8 bits a sample.
    /// - Throws: `MediaError` of kind `.inputMissing` or `.inputInvalid`, naming the file.
    package static func load(path: String, width: Int, height: Int, fit: FitMode, background: RGBAColor,
                            focus: Focus = .centre,
                            isCancelled: @escaping @Sendable () -> Bool = { false }) throws(MediaError) -> RGBAImage {
        let still = try decode(path: path, raster: Raster(frame: (width, height), fit: fit), isCancelled: isCancelled)
        switch try fitted(still, path: path, frame: (width, height), fit: fit, background: background, focus: focus, deep: false) {
        case .rgba(let image): return image
        case .deep(let image): return image.reduced()
        }
    }

    /// Like `load`, converted to the render's `layout`: what the compositor draws from. A
    /// 16-bit layout takes the 16-bit way whatever the still. An sRGB still that is already
    /// packed RGB at the frame's size and upright (a PNG made for the frame) is converted
    /// straight from the decoder's picture, with no RGBA copy in between; the bytes are the
    /// same either way.
    ///
    /// `layers` (a card's `on` layers) are composed onto the fitted still in order before it is
    /// converted (`RGBA16Image.compose`): an 8-bit still with layers takes the 16-bit way
    /// there, and its pixels no layer touches keep the bytes they have without layers. A
    /// still without layers takes exactly the way it took before layers existed.
    package static func loadPlanar(path: String, width: Int, height: Int, fit: FitMode, background: RGBAColor,
                                  layout: PixelLayout, focus: Focus = .centre, layers: [CardLayer] = [], probe: ContrastProbe? = nil,
                                  isCancelled: @escaping @Sendable () -> Bool = { false }) throws(MediaError) -> PlanarImage {
        try loadPlanar(path: path, width: width, height: height, fit: fit, background: background, layouts: [layout], focus: focus,
                       layers: layers, probe: probe, isCancelled: isCancelled)[0]
    }

    /// Like `loadPlanar(…layout:…)` for each of `layouts`, decoding the file once: the picture
    /// in each layout is the one `loadPlanar` gives for that layout alone, byte for byte (a
    /// render feeds each output frames in its own layout, whatever else it writes).
    /// `probe` measures the contrast of text layers on the fitted still, before any layer is on it.
    /// `placed` is told where `focus` lands in the frame, as fractions of it (a cover crop centres
    /// it where it can, a contained still sits in the middle).
    package static func loadPlanar(path: String, width: Int, height: Int, fit: FitMode, background: RGBAColor,
                                  layouts: [PixelLayout], focus: Focus = .centre, layers: [CardLayer] = [], probe: ContrastProbe? = nil,
                                  isCancelled: @escaping @Sendable () -> Bool = { false },
                                  placed: ((Focus) -> Void)? = nil) throws(MediaError) -> [PlanarImage] {
        let still = try decode(path: path, raster: Raster(frame: (width, height), fit: fit), isCancelled: isCancelled)
        let frame = still.picture
        if let placed {
            // Where the focus lands in the frame: what a moving still zooms toward.
            let upright = still.orientation.turnedSize(width: frame.width, height: frame.height)
            let point = StillFit(source: upright, frame: (width, height), fit: fit, focus: (focus.x, focus.y))
                .framePoint(of: (focus.x, focus.y), frame: (width, height))
            placed(Focus(x: point.x, y: point.y) ?? focus)
        }
        let planes = frame.planes(count: 1)
        // Fitted once for the 8-bit layouts and once for the 16-bit ones; a 16-bit picture has
        // the layers composed onto it in place, so that is done once too.
        var fits: [Bool: Fitted] = [:]
        var pictures: [PlanarImage] = []
        for layout in layouts {
            if !layout.isDeep, layers.isEmpty, probe == nil, let order = frame.packedOrder, frame.width == width, frame.height == height,
               still.orientation == .upright, try conversion(for: still, path: path) == nil, let base = planes.data[0] {
                pictures.append(PlanarImage.converting(UnsafePointer(base), width: width, height: height,
                                                       rowStride: Int(planes.strides[0]), order: order, into: layout))
                continue
            }
            let fitting: Fitted
            if let made = fits[layout.isDeep] {
                fitting = made
            } else {
                fitting = try fitted(still, path: path, frame: (width, height), fit: fit, background: background, focus: focus, deep: layout.isDeep)
                switch fitting {
                case .rgba(let image): probe?.measure(image)
                case .deep(let image): probe?.measure(image)
                }
                if case .deep(let image) = fitting { image.compose(layers) }
                fits[layout.isDeep] = fitting
            }
            switch fitting {
            case .rgba(let image): pictures.append(image.planar(layout, layers: layers))
            case .deep(let image): pictures.append(image.planar(layout))
            }
        }
        return pictures
    }

    /// The size a picture is scaled to before it is placed: covering or contained, aspect
    /// kept, never smaller than one pixel.
    package static func fittedSize(source: (width: Int, height: Int), frame: (width: Int, height: Int),
                                  fit: FitMode) -> (width: Int, height: Int) {
        let sx = Double(frame.width) / Double(source.width)
        let sy = Double(frame.height) / Double(source.height)
        let scale = fit == .cover ? max(sx, sy) : min(sx, sy)
        // Whichever side decides the scale is matched exactly, so no hairline gaps appear.
        let w = (fit == .cover) == (sx >= sy) ? frame.width : Int((Double(source.width) * scale).rounded())
        let h = (fit == .cover) == (sy > sx) ? frame.height : Int((Double(source.height) * scale).rounded())
        return (max(1, w), max(1, h))
    }

    /// Checks that `path` is a regular file this process can read, without decoding it and
    /// without blocking: a FIFO, a device or a socket is refused at once, before any open that
    /// could wait on it.
    /// - Throws: `MediaError` of kind `.inputMissing` naming the file and what it is.
    package static func checkReadable(path: String) throws(MediaError) {
        _ = try InputFile(path: path)
    }

    /// A still fitted to the frame, in 8 or 16 bits.
    enum Fitted {
        case rgba(RGBAImage)
        case deep(RGBA16Image)
    }

    /// A decoded still turned upright, the part the frame shows converted to sRGB and scaled,
    /// and placed on a `frame`-sized canvas. Only that part (and the filter's margin around
    /// it) is converted and scaled, so the memory this takes depends on the frame and the
    /// decoded still, never on how far cover enlarges the still.
    ///
    /// An 8-bit sRGB still without translucent pixels takes today's way exactly: one libswscale
    /// pass from the decoder's picture. 8-bit stills with a colour profile or tags are
    /// converted (at 8 bits, before scaling) and then scaled the same way. Stills with more
    /// than 8 bits, translucent stills and every still of a `deep` render take the 16-bit way.
    static func fitted(_ still: DecodedStill, path: String, frame: (width: Int, height: Int), fit: FitMode,
                       background: RGBAColor, focus: Focus, deep: Bool) throws(MediaError) -> Fitted {
        let picture = still.picture
        // A photo stored sideways with an EXIF orientation is fitted as it is meant to be seen.
        let orientation = still.orientation
        let stored = (width: picture.width, height: picture.height)
        let upright = orientation.turnedSize(width: stored.width, height: stored.height)
        let placement = StillFit(source: upright, frame: frame, fit: fit, focus: (focus.x, focus.y))
        let window = placement.window(source: upright, rules: edgeRules(picture, orientation))
        let crop = try picture.cropped(to: orientation.storedRect(of: window.source, stored: stored), subject: path)
        // Scaled as stored, to the size that is the window's once turned; turning is then an
        // exact reshuffle of the small picture, not of the full-size photo.
        let target = orientation.turnedSize(width: window.scaledWidth, height: window.scaledHeight)
        let conversion = try conversion(for: still, path: path)
        let translucent = crop.hasAlphaChannel && crop.hasTranslucentPixel
        if deep || picture.bitDepth > 8 || translucent {
            let scaled = try deepScaled(crop, conversion: conversion, translucent: translucent,
                                        premultiplied: still.premultiplied, width: target.width, height: target.height, path: path)
            let visible = scaled.turned(orientation).cropped(x: window.offsetX, y: window.offsetY,
                                                             width: placement.visible.width, height: placement.visible.height)
            return .deep(visible.placed(onCanvasWidth: frame.width, height: frame.height, background: background))
        }
        var source = crop
        if let conversion {
            var managed = try convertToRGBA(crop, width: crop.width, height: crop.height, path: path)
            conversion.apply(to: &managed)
            source = try managed.frame(subject: path)
        }
        let scaled = orientation.apply(to: try convertToRGBA(source, width: target.width, height: target.height, path: path))
        let visible = scaled.cropped(x: window.offsetX, y: window.offsetY,
                                     width: placement.visible.width, height: placement.visible.height)
        // An opaque picture that already fills the frame needs no placing: skip the copy.
        if visible.width == frame.width && visible.height == frame.height && !picture.hasAlphaChannel { return .rgba(visible) }
        return .rgba(visible.centred(onCanvasWidth: frame.width, height: frame.height, background: background))
    }

    /// The conversion a still's colours need, or nil when they are sRGB already.
    /// - Throws: `MediaError(.inputInvalid)` naming the file when they cannot be converted.
    static func conversion(for still: DecodedStill, path: String) throws(MediaError) -> ColourConversion? {
        let conversion: ColourConversion?
        do {
            conversion = try ColourConversion.of(still.colour)
        } catch {
            throw MediaError(.inputInvalid, subject: path, message: error.message)
        }
        guard let conversion, !conversion.isIdentity else { return nil }
        if conversion.isGrey && !still.picture.isGrey {
            throw MediaError(.inputInvalid, subject: path,
                             message: "has colour pixels but a grey ICC colour profile; slicevid cannot tell what its colours are")
        }
        return conversion
    }

    /// The size to draw a still of any size (SVG) at: the size it is shown at, fitted from its
    /// own size, but at most four frames' worth of pixels (a thin SVG covering the frame is
    /// drawn smaller and scaled up the rest of the way) and within the still limits.
    static func rasterSize(_ own: (width: Int, height: Int), frame: (width: Int, height: Int),
                           fit: FitMode) -> (width: Int, height: Int)? {
        guard own.width > 0, own.height > 0 else { return nil }
        let shown = fittedSize(source: own, frame: frame, fit: fit)
        let budget = min(Double(StillLimits.maxPixels), 4 * Double(frame.width) * Double(frame.height))
        let pixels = Double(shown.width) * Double(shown.height)
        let shrink = pixels > budget ? (budget / pixels).squareRoot() : 1
        let side = Double(StillLimits.maxSide)
        let scale = min(shrink, side / Double(shown.width), side / Double(shown.height))
        return (max(1, Int(Double(shown.width) * scale)), max(1, Int(Double(shown.height) * scale)))
    }

    /// Where the crop's edges may fall on each upright axis: on whole chroma samples (and
    /// whole bytes of 1-bit pictures) of the stored picture, and on even columns for RGB too,
    /// because libswscale averages RGB input's chroma in pairs of columns: a crop starting
    /// between a pair's two columns would pair them differently from the whole still.
    private static func edgeRules(_ picture: Frame, _ orientation: Orientation) -> (x: StillFit.EdgeRule, y: StillFit.EdgeRule) {
        let alignment = picture.cropAlignment
        let columns = alignment.x % 2 == 0 ? alignment.x : 2 * alignment.x
        // Upright x comes from stored x when `a` is set (mirrored when negative), else from stored y.
        let x = orientation.a != 0 ? StillFit.EdgeRule(unit: columns, flipped: orientation.a < 0)
                                   : StillFit.EdgeRule(unit: alignment.y, flipped: orientation.c < 0)
        let y = orientation.d != 0 ? StillFit.EdgeRule(unit: alignment.y, flipped: orientation.d < 0)
                                   : StillFit.EdgeRule(unit: columns, flipped: orientation.b < 0)
        return (x, y)
    }

    /// The most libswscale shrinks a side in one step. Beyond about 42:1 its bicubic filters
    /// lose precision and shift colours (a flat #C83C1E comes out #BC2F21); further is taken in
    /// steps, each at most this.
    static let largestShrink = 40

    /// Scales and converts a decoded picture to RGBA, honouring its colour matrix and range.
    static func convertToRGBA(_ picture: Frame, width: Int, height: Int, path: String) throws(MediaError) -> RGBAImage {
        if picture.width > width * largestShrink || picture.height > height * largestShrink {
            let step = (width: max(width, (picture.width + largestShrink - 1) / largestShrink),
                        height: max(height, (picture.height + largestShrink - 1) / largestShrink))
            let halfway = try convertToRGBA(picture, width: step.width, height: step.height, path: path)
            return try convertToRGBA(try halfway.frame(subject: path), width: width, height: height, path: path)
        }
        let encoding = picture.scalerSource
        // An RGB still already at the frame size only needs its bytes reordered: libswscale's
        // unscaled converters do that exactly and ~10× faster than the filtering path.
        let sameSize = picture.width == width && picture.height == height
        let isRGB = encoding.color == .rgb && av_pix_fmt_desc_get(encoding.format).pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0
        var flags = sameSize && isRGB ? SWS_POINT : SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT
        // Shrinking RGB 2:1 or more, libswscale halves its chroma, pairing columns; with an odd
        // width the last pair reaches one pixel past the row, into padding no decoder wrote, so
        // the last column came out different from run to run (and a sliver, mostly last column,
        // far off: #C83C1E from 9 columns to 2 came out #B54128). Those take full-chroma input.
        if isRGB && picture.width % 2 == 1 && width <= picture.width / 2 { flags |= SWS_FULL_CHR_H_INP }
        let scaler: Scaler
        do {
            scaler = try Scaler(from: (picture.width, picture.height, encoding.format, encoding.color),
                                to: (width, height, AV_PIX_FMT_RGBA, .rgb), flags: flags)
        } catch {
            throw MediaError(.inputInvalid, subject: path, message: "could not be converted to RGB (\(error.message))")
        }
        // libswscale writes every byte (opaque alpha for formats without alpha), so the buffer
        // is not cleared first: at 4K that would be a 33 MB pass for nothing.
        var failure: MediaError?
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            do throws(MediaError) {
                try scaler.scale(picture.planes(), into: PlanePointers(data: [buffer.baseAddress], strides: [Int32(width * 4)]))
            } catch {
                failure = error
            }
            count = width * height * 4
        }
        if let failure { throw MediaError(.inputInvalid, subject: path, message: "could not be converted to RGB (\(failure.message))") }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}

extension RGBAImage {
    /// This picture as an RGBA AVFrame (full range), in FFmpeg's own padded, aligned buffer:
    /// libswscale reads a little past the end of a row, which a Swift array does not allow.
    func frame(subject: String) throws(MediaError) -> Frame {
        let frame = try Frame(subject: subject)
        frame.pointer.pointee.format = AV_PIX_FMT_RGBA.rawValue
        frame.pointer.pointee.width = Int32(width)
        frame.pointer.pointee.height = Int32(height)
        frame.pointer.pointee.color_range = AVCOL_RANGE_JPEG
        try frame.allocateBuffer(subject: subject)
        let plane = frame.planes(count: 1)
        guard let base = plane.data[0] else { throw MediaError.outOfMemory(subject: subject) }
        pixels.withUnsafeBufferPointer { source in
            for row in 0..<height {
                (base + row * Int(plane.strides[0])).update(from: source.baseAddress! + row * width * 4, count: width * 4)
            }
        }
        return frame
    }
}
