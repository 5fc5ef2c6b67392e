// The 16-bit way a still is fitted: for stills with more than 8 bits, stills with translucent
// pixels, and every still of a render that feeds a deeper output. The crop is brought to planar
// 16-bit RGB at its own size (8-bit stills through the usual 8-bit conversion, then × 257, in
// our code: libswscale is never exact between depths), its colours converted, its colour
// premultiplied by alpha, and only then scaled, by libswscale within 16 bits, planar (packed
// RGBA64 is several times slower).

import CFFmpeg
import SliceKit

extension StillDecoder {
    /// `crop` (a view of the decoded picture) as a 16-bit picture of `width` × `height`: sRGB,
    /// and premultiplied with its colour capped at its alpha when `translucent`.
    /// - Parameter bandRows: how many rows of an 8-bit RGB crop go through 8-bit RGBA at a time.
    static func deepScaled(_ crop: Frame, conversion: ColourConversion?, translucent: Bool, premultiplied: Bool,
                           width: Int, height: Int, path: String, bandRows: Int = 256) throws(MediaError) -> RGBA16Image {
        let picture: RGBA16Image
        if crop.bitDepth <= 8 {
            picture = RGBA16Image(width: crop.width, height: crop.height, hasAlpha: translucent)
            // RGB converts pixel by pixel, so it goes in bands and the 8-bit copy stays small (a
            // 100-megapixel PNG would otherwise hold 400 MB more); Y'CbCr's chroma is interpolated
            // across rows, so it goes whole.
            let encoding = crop.scalerSource
            let isRGB = encoding.color == .rgb && av_pix_fmt_desc_get(encoding.format).pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0
            let band = isRGB ? max(1, bandRows) : crop.height
            for top in stride(from: 0, to: crop.height, by: band) {
                let rows = min(band, crop.height - top)
                let part = try crop.cropped(to: PixelRect(x: 0, y: top, width: crop.width, height: rows), subject: path)
                // At 8 bits Little CMS is exact to a level; its 16-bit path is resampled into a table.
                var rgba = try convertToRGBA(part, width: part.width, height: rows, path: path)
                conversion?.apply(to: &rgba)
                picture.expand(rgba, atRow: top)
            }
        } else {
            picture = RGBA16Image(width: crop.width, height: crop.height, hasAlpha: translucent)
            let encoding = crop.scalerSource
            // RGB only changes depth or order (exact within 16 bits); Y'CbCr's chroma is interpolated.
            let isRGB = encoding.color == .rgb && av_pix_fmt_desc_get(encoding.format).pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0
            try scale(crop.planes(), from: (crop.width, crop.height, encoding.format, encoding.color), into: picture,
                      flags: isRGB ? SWS_POINT : SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, path: path)
            conversion?.apply(to: picture)
        }
        if translucent && !premultiplied { picture.premultiply() }
        let scaled = try scaled(picture, width: width, height: height, path: path)
        if translucent { scaled.clampColourToAlpha() }
        return scaled
    }

    /// `picture` scaled to `width` × `height` with libswscale's bicubic filter, in steps of at
    /// most `largestShrink` per side (as `convertToRGBA` does).
    static func scaled(_ picture: RGBA16Image, width: Int, height: Int, path: String) throws(MediaError) -> RGBA16Image {
        if picture.width == width && picture.height == height { return picture }
        if picture.width > width * largestShrink || picture.height > height * largestShrink {
            let step = (width: max(width, (picture.width + largestShrink - 1) / largestShrink),
                        height: max(height, (picture.height + largestShrink - 1) / largestShrink))
            return try scaled(scaled(picture, width: step.width, height: step.height, path: path), width: width, height: height, path: path)
        }
        let result = RGBA16Image(width: width, height: height, hasAlpha: picture.hasAlpha)
        try scale(picture.scalerPlanes, from: (picture.width, picture.height, picture.scalerFormat, .rgb), into: result,
                  flags: SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, path: path)
        return result
    }

    /// Converts (and scales) `source` into all of `target`'s planes.
    private static func scale(_ source: PlanePointers, from format: (width: Int, height: Int, format: AVPixelFormat, color: ColorEncoding),
                              into target: RGBA16Image, flags: Int32, path: String) throws(MediaError) {
        do {
            let scaler = try Scaler(from: format, to: (target.width, target.height, target.scalerFormat, .rgb), flags: flags)
            try scaler.scale(source, into: target.scalerPlanes)
        } catch {
            throw MediaError(.inputInvalid, subject: path, message: "could not be converted to RGB (\(error.message))")
        }
    }
}

extension RGBA16Image {
    /// libswscale's name for this picture: planar GBR(A), 16-bit little-endian.
    var scalerFormat: AVPixelFormat { hasAlpha ? AV_PIX_FMT_GBRAP16LE : AV_PIX_FMT_GBRP16LE }

    /// The planes in libswscale's G, B, R(, A) order.
    var scalerPlanes: PlanePointers {
        let order = hasAlpha ? [1, 2, 0, 3] : [1, 2, 0]
        return PlanePointers(data: order.map { UnsafeMutableRawPointer(planes[$0]).assumingMemoryBound(to: UInt8.self) },
                             strides: order.map { _ in Int32(stride * 2) })
    }
}
