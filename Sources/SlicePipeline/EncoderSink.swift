// The sink that turns frames into a file: a VideoWriter writing to an output's temporary path.

import SliceKit
import SliceMedia

/// Encodes frames into one `OutputTarget`.
final class EncoderSink: FrameSink {
    let target: OutputTarget
    private let writer: VideoWriter

    var name: String { target.path }

    /// Opens the encoder; throws before any frame is rendered if it cannot.
    init(target: OutputTarget, spec: TransitionSpec, layout: PixelLayout, settings: EncoderSettings) throws(SlicevidError) {
        self.target = target
        do {
            writer = try VideoWriter(path: target.temporaryPath, outputFormat: target.format, width: spec.width,
                                     height: spec.height, frameRate: spec.frameRate, inputLayout: layout,
                                     settings: settings)
        } catch {
            target.discard()
            throw SlicevidError(error.kind == .output ? MediaError(.output, subject: "-o \(target.path)", message: error.message) : error)
        }
    }

    func consume(_ frame: PlanarImage, index: Int) throws {
        do {
            try writer.write(frame)
        } catch {
            throw SlicevidError(.outputFailed, "-o \(target.path): \(error.message)")
        }
    }

    func finish() throws {
        do {
            try writer.finish()
        } catch {
            throw SlicevidError(.outputFailed, "-o \(target.path): \(error.message)")
        }
    }
}
