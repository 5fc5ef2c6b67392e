// A still as decoded, before anything is done to it: the picture as stored, and what the file
// says about it — how to turn it upright, what its colours mean, how its alpha is stored.

import CFFmpeg
import SliceKit

/// A decoded still and its description.
struct DecodedStill {
    /// The picture as stored (in the decoder's pixel format).
    let picture: Frame
    /// How to turn it to be seen upright.
    var orientation: Orientation
    /// What its colours mean.
    var colour: StillColour
    /// Whether colour is stored already multiplied by alpha (librsvg's SVGs, some HEIFs).
    var premultiplied: Bool
    /// The format's name, for messages.
    var format: String
}

extension DecodedStill {
    /// A picture FFmpeg decoded, described by the frame's own side data and tags and by what
    /// FFmpeg's decoders leave out (a PNG's eXIf, cICP and gAMA/cHRM, a TIFF's orientation).
    /// - Throws: `MediaError(.inputInvalid)` for an HDR still, an oversized profile or a
    ///   profile of the wrong kind.
    init(ffmpeg picture: Frame, header: StillHeader, file: InputFile, path: String) throws(MediaError) {
        var orientation = picture.orientation
        var colour: StillColour
        do throws(ColourRefusal) {
            colour = try StillColour.tagged(primaries: Int(picture.pointer.pointee.color_primaries.rawValue),
                                            transfer: Int(picture.pointer.pointee.color_trc.rawValue))
            if let side = av_frame_get_side_data(picture.pointer, AV_FRAME_DATA_ICC_PROFILE), side.pointee.size > 0,
               let data = side.pointee.data {
                guard side.pointee.size <= StillColour.largestProfile else {
                    throw ColourRefusal(message: "carries an ICC colour profile of \(side.pointee.size) bytes, more than the \(StillColour.largestProfile >> 20) MiB slicevid reads")
                }
                colour = .profile(Array(UnsafeBufferPointer(start: data, count: Int(side.pointee.size))))
            }
        } catch {
            throw MediaError(.inputInvalid, subject: path, message: error.message)
        }
        switch header.format {
        case .png:
            let chunks = PNGChunks(reading: file)
            if let cicp = chunks.cicp {
                // cICP outranks iCCP, sRGB, gAMA and cHRM (PNG, third edition).
                do throws(ColourRefusal) {
                    colour = try StillColour.tagged(primaries: cicp.primaries, transfer: cicp.transfer)
                } catch {
                    throw MediaError(.inputInvalid, subject: path, message: error.message)
                }
            } else if colour == .sRGB {
                colour = chunks.colour
            }
            if let exif = chunks.orientation, orientation == .upright { orientation = Orientation(exif: exif) ?? .upright }
        case .tiff:
            if let tag = header.tiff?.orientation, orientation == .upright { orientation = Orientation(exif: tag) ?? .upright }
        default:
            break
        }
        self.init(picture: picture, orientation: orientation, colour: colour,
                  premultiplied: header.format == .svg, format: header.format?.rawValue ?? "image")
    }
}
