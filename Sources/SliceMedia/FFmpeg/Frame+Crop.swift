// A view of part of a decoded picture: the same buffers (referenced, not copied) with the plane
// pointers moved to the crop's corner, as av_frame_apply_cropping does, but for every layout a
// still decodes to: subsampled chroma planes and 1-bit pictures included.

import CFFmpeg

extension Frame {
    /// How a crop's left and top edges must be aligned so every plane starts on a whole sample:
    /// 2 for 4:2:0 chroma, a whole byte's worth of pixels for 1-bit pictures.
    var cropAlignment: (x: Int, y: Int) {
        guard let descriptor = av_pix_fmt_desc_get(pixelFormat)?.pointee else { return (1, 1) }
        var x = 1 << Int(descriptor.log2_chroma_w)
        let y = 1 << Int(descriptor.log2_chroma_h)
        if descriptor.flags & UInt64(AV_PIX_FMT_FLAG_BITSTREAM) != 0 {
            // Steps are in bits there: whole bytes need 8 / gcd(step, 8) pixels.
            var a = max(1, Int(descriptor.comp.0.step)), b = 8
            while b != 0 { (a, b) = (b, a % b) }
            x = max(x, 8 / a)
        }
        return (x, y)
    }

    /// A frame showing only `rect` of this one, sharing its buffers.
    /// - Precondition: `rect` lies inside the picture and its left and top edges are multiples
    ///   of `cropAlignment`.
    /// - Throws: `MediaError` when the picture's layout is unknown or out of memory.
    func cropped(to rect: PixelRect, subject: String) throws(MediaError) -> Frame {
        precondition(rect.x >= 0 && rect.y >= 0 && rect.width > 0 && rect.height > 0
                     && rect.x + rect.width <= width && rect.y + rect.height <= height, "crop outside the picture")
        if rect == PixelRect(x: 0, y: 0, width: width, height: height) { return self }
        guard let descriptor = av_pix_fmt_desc_get(pixelFormat)?.pointee,
              descriptor.flags & UInt64(AV_PIX_FMT_FLAG_HWACCEL) == 0 else {
            throw MediaError(.inputInvalid, subject: subject, message: "decodes to a pixel layout that cannot be cropped")
        }
        let alignment = cropAlignment
        precondition(rect.x % alignment.x == 0 && rect.y % alignment.y == 0, "crop not aligned to the chroma planes")
        let view = try Frame(subject: subject)
        try check(av_frame_ref(view.pointer, pointer), "av_frame_ref", subject: subject)
        let components = [descriptor.comp.0, descriptor.comp.1, descriptor.comp.2, descriptor.comp.3]
            .prefix(Int(descriptor.nb_components))
        let bitstream = descriptor.flags & UInt64(AV_PIX_FMT_FLAG_BITSTREAM) != 0
        var planes = planes(count: 4)
        for plane in 0..<4 {
            guard let base = planes.data[plane] else { continue }
            // A palette's second plane is its colour table, not picture rows.
            if descriptor.flags & UInt64(AV_PIX_FMT_FLAG_PAL) != 0 && plane == 1 { continue }
            guard let component = components.first(where: { Int($0.plane) == plane }) else { continue }
            let chroma = plane == 1 || plane == 2
            let column = rect.x >> (chroma ? Int(descriptor.log2_chroma_w) : 0)
            let row = rect.y >> (chroma ? Int(descriptor.log2_chroma_h) : 0)
            let columnBytes = bitstream ? column * Int(component.step) / 8 : column * Int(component.step)
            planes.data[plane] = base + row * Int(planes.strides[plane]) + columnBytes
        }
        view.setPlanes(planes)
        view.pointer.pointee.width = Int32(rect.width)
        view.pointer.pointee.height = Int32(rect.height)
        return view
    }
}
