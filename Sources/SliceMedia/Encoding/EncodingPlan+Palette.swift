// A GIF's palette, chosen before rendering from the stills the clip is cut from. The stills go
// through the very conversion the GIF's frames will (same scaler, same size), so the held frames
// at either end map onto the palette exactly.

import CFFmpeg
import SliceKit

extension EncodingPlan {
    /// The palette for this GIF output.
    /// - Parameters:
    ///   - stills: the fitted stills, in the render's layout and size.
    ///   - background: what shows between the strips; kept exactly when opaque enough to show.
    /// - Throws: `MediaError` if libswscale refuses the conversion.
    package func palette(stills: [PlanarImage], background: RGBAColor) throws(MediaError) -> Palette {
        var pictures: [RGBAImage] = []
        for original in stills {
            // The GIF's frames of a 16-bit render are reduced to 8 bits first; so are the stills.
            let still = original.layout.isDeep ? original.reducedToEightBit() : original
            let scaler = try gifScaler(from: still.layout)
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            let stride = Int32(width * 4)
            try pixels.withUnsafeMutableBufferPointer { (buffer) throws(MediaError) in
                try scaler.scale(still.planePointers, into: PlanePointers(data: [buffer.baseAddress], strides: [stride]))
            }
            pictures.append(RGBAImage(width: width, height: height, pixels: pixels))
        }
        let fixed = background.alpha >= 128 ? [background] : []
        return Palette(for: pictures, fixed: fixed, transparent: keepsAlpha)
    }

    /// Converts rendered frames in `layout` to RGBA at this output's size.
    func gifScaler(from layout: PixelLayout) throws(MediaError) -> Scaler {
        let resized = width != renderWidth || height != renderHeight
        // Area averaging for downscales: no ringing, so no colours the stills never had.
        let flags = Scaler.qualityFlags(resizing: resized)
        return try Scaler(from: (renderWidth, renderHeight, layout.avPixelFormat, .of(layout)),
                          to: (width, height, AV_PIX_FMT_RGBA, .rgb), flags: flags)
    }
}
