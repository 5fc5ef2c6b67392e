// The sink that turns frames into a file: a VideoWriter writing to an output's temporary path.
// Every sink sees every rendered frame; the plan's selection says which ones this output keeps
// (all of them, a GIF's subsample, a poster's one), and the writer scales what it keeps.

import SliceKit
import SliceMedia

/// Encodes frames into one `OutputTarget`.
final class EncoderSink: FrameSink {
    let target: OutputTarget
    private let plan: EncodingPlan
    private let writer: VideoWriter

    /// Opens the encoder; throws before any frame is rendered if it cannot.
    /// - Parameters:
    ///   - layout: the layout frames are rendered in.
    ///   - palette: a GIF's colours, chosen from the stills.
    ///   - audio: the music bed, encoded in the plan's audio codec.
    ///   - cancellation: asked between packets while the encoder is flushed.
    init(target: OutputTarget, plan: EncodingPlan, layout: PixelLayout, palette: Palette? = nil, audio: AudioTrack? = nil,
         cancellation: Cancellation? = nil) throws(SlicevidError) {
        self.target = target
        self.plan = plan
        do {
            writer = try VideoWriter(plan: plan, path: target.temporaryPath, file: target.file, inputLayout: layout, palette: palette,
                                     audio: audio)
        } catch {
            target.discard()
            throw error.kind == .output ? SlicevidError(.outputFailed, "\(output: target.destination): \(error.message)") : SlicevidError(error)
        }
        if let cancellation { writer.stopRequested = { cancellation.isCancelled } }
    }

    var wanted: FramesWanted {
        let selection = plan.selection
        return FramesWanted { selection.contains($0) }
    }

    func consume(_ frame: PlanarImage, index: Int) throws {
        // Dropping here, not in the render, lets one render feed outputs of different rates.
        guard plan.selection.contains(index) else { return }
        do {
            try writer.write(frame, index: index)
        } catch {
            throw SlicevidError(.outputFailed, "\(output: target.destination): \(error.message)")
        }
    }

    func finish() throws {
        do {
            try writer.finish()
        } catch {
            throw SlicevidError(.outputFailed, "\(output: target.destination): \(error.message)")
        }
    }
}
