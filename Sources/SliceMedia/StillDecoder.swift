// Reads a still (PNG, JPEG, WebP, BMP, TIFF, GIF, AVIF, JPEG XL) with libavformat/libavcodec and
// fits it to the frame with libswscale. Runs once per input, never per frame. Decoding itself,
// strict and bounded, is in StillDecoder+Decoding.swift.

import CFFmpeg
import Foundation
import SliceKit

/// Decodes still images and fits them to the output frame.
package enum StillDecoder {
    /// Decodes the first picture of the file at `path` and fits it to `width` × `height`.
    /// - Parameters:
    ///   - fit: `.cover` fills the frame and crops the overflow; `.contain` letterboxes.
    ///   - background: shown around a contained picture and under translucent pixels.
    ///   - focus: the point of the still cover keeps in view, as fractions of its upright
    ///     width and height; the centre by default.
    ///   - isCancelled: polled while the file is read; once it says yes decoding stops.
    /// - Returns: an RGBA picture of exactly `width` × `height`.
    /// - Throws: `MediaError` of kind `.inputMissing` or `.inputInvalid`, naming the file.
    package static func load(path: String, width: Int, height: Int, fit: FitMode, background: RGBAColor,
                            focus: (x: Double, y: Double) = (0.5, 0.5),
                            isCancelled: @escaping @Sendable () -> Bool = { false }) throws(MediaError) -> RGBAImage {
        let frame = try decodeFirstFrame(path: path, isCancelled: isCancelled)
        return try fitted(frame, path: path, frame: (width, height), fit: fit, background: background, focus: focus)
    }

    /// Like `load`, converted to the render's `layout`: what the compositor draws from. A still
    /// that is already packed RGB at the frame's size and upright (a PNG made for the frame) is
    /// converted straight from the decoder's picture, with no RGBA copy in between; the bytes
    /// are the same either way.
    package static func loadPlanar(path: String, width: Int, height: Int, fit: FitMode, background: RGBAColor,
                                  layout: PixelLayout, focus: (x: Double, y: Double) = (0.5, 0.5),
                                  isCancelled: @escaping @Sendable () -> Bool = { false }) throws(MediaError) -> PlanarImage {
        let frame = try decodeFirstFrame(path: path, isCancelled: isCancelled)
        let planes = frame.planes(count: 1)
        if let order = frame.packedOrder, frame.width == width, frame.height == height,
           frame.orientation == .upright, let base = planes.data[0] {
            return PlanarImage.converting(UnsafePointer(base), width: width, height: height,
                                          rowStride: Int(planes.strides[0]), order: order, into: layout)
        }
        return try fitted(frame, path: path, frame: (width, height), fit: fit, background: background, focus: focus)
            .planar(layout)
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

    /// A decoded picture turned upright, the part the frame shows scaled, and placed on a
    /// `frame`-sized canvas. Only that part (and the filter's margin around it) is scaled, so
    /// the memory this takes depends on the frame and the decoded still, never on how far
    /// cover enlarges the still.
    private static func fitted(_ picture: Frame, path: String, frame: (width: Int, height: Int), fit: FitMode,
                               background: RGBAColor, focus: (x: Double, y: Double)) throws(MediaError) -> RGBAImage {
        // A photo stored sideways with an EXIF orientation is fitted as it is meant to be seen.
        let orientation = picture.orientation
        let stored = (width: picture.width, height: picture.height)
        let upright = orientation.turnedSize(width: stored.width, height: stored.height)
        let placement = StillFit(source: upright, frame: frame, fit: fit, focus: focus)
        let window = placement.window(source: upright, rules: edgeRules(picture, orientation))
        let crop = try picture.cropped(to: orientation.storedRect(of: window.source, stored: stored), subject: path)
        // Scaled as stored, to the size that is the window's once turned; turning is then an
        // exact reshuffle of the small picture, not of the full-size photo.
        let target = orientation.turnedSize(width: window.scaledWidth, height: window.scaledHeight)
        let scaled = orientation.apply(to: try convertToRGBA(crop, width: target.width, height: target.height, path: path))
        let visible = scaled.cropped(x: window.offsetX, y: window.offsetY,
                                     width: placement.visible.width, height: placement.visible.height)
        // An opaque picture that already fills the frame needs no placing: skip the copy.
        if visible.width == frame.width && visible.height == frame.height && !picture.hasAlphaChannel { return visible }
        return visible.centred(onCanvasWidth: frame.width, height: frame.height, background: background)
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
