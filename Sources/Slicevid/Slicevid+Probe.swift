// Media files read back through the library, as `slicevid probe` reads them: the facts `make
// --dry-run` predicts, so a program can compare what it asked for with what it got.

import SliceMedia
import SlicePipeline

extension Slicevid {
    /// What the media file at `path` holds: container, codec, profile, size, pixel format,
    /// colour tags, frames (counted by decoding the whole stream), length and its first audio
    /// stream. A PNG sequence is named by its pattern (`frames/%05d.png`). SVG, HEIC, AVIF and
    /// JPEG XL files are read in a decode helper, as `make` decodes them (`decodeHelper`).
    /// - Throws: `SlicevidError`: `.inputMissing`, `.inputInvalid` for a file that is not there
    ///   or not media; `.unavailable` for a format this build cannot read.
    public static func probe(_ path: String) throws(SlicevidError) -> ProbeReport {
        do throws(MediaError) {
            return ProbeReport(path: path, info: try MediaReader.info(path: path))
        } catch {
            throw SlicevidError(error)
        }
    }

    /// The still formats this build decodes (`png`, `jpeg`, `webp`, …), as `make --help` lists
    /// them.
    public static var stillFormats: [String] { StillDecoder.acceptedFormats }
}
