// The sink for outputs that are one picture made by slicevid rather than by a video encoder: a
// JPEG or WebP poster (the chosen frame), and a storyboard (frames evenly spaced over the clip,
// each scaled into its cell and labelled with its time). The picture is written when the render
// ends, to the output's temporary path.

import SliceKit
import SliceMedia

/// Keeps the frames a still output shows and writes the picture at the end.
final class StillSink: FrameSink {
    let target: OutputTarget
    private let plan: EncodingPlan
    /// The picture being made: the poster frame, or the sheet with its cells filled so far.
    private var picture: RGBAImage?
    /// For a storyboard: the rendered frame each cell shows, in reading order.
    private let cells: [Int]

    init(target: OutputTarget, plan: EncodingPlan, background: RGBAColor) {
        self.target = target
        self.plan = plan
        if let sheet = plan.sheet {
            cells = sheet.frames(of: plan.selection.renderFrames)
            // Gaps show the background, or a neutral dark grey behind a transparent one.
            let fill = background.alpha == 255 || plan.keepsAlpha ? background : RGBAColor(red: 32, green: 32, blue: 32)
            picture = RGBAImage(width: plan.width, height: plan.height, color: fill)
        } else {
            cells = []
        }
    }

    var wanted: FramesWanted {
        if plan.sheet == nil {
            let selection = plan.selection
            return FramesWanted { selection.contains($0) }
        }
        let cells = Set(cells)
        return FramesWanted { cells.contains($0) }
    }

    func consume(_ frame: PlanarImage, index: Int) throws {
        guard let sheet = plan.sheet else {
            if plan.selection.contains(index) { picture = frame.rgba(width: frame.width, height: frame.height) }
            return
        }
        guard cells.contains(index), var sheetPicture = picture else { return }
        picture = nil
        let cell = sheet.cell(width: frame.width, height: frame.height)
        let scaled = frame.rgba(width: cell.width, height: cell.height)
        let time = TimeLabel.text(seconds: plan.selection.time(ofFrame: index))
        let scale = sheet.labelScale(width: frame.width, height: frame.height)
        for (position, shown) in cells.enumerated() where shown == index {
            let origin = sheet.origin(ofCell: position, width: frame.width, height: frame.height)
            for y in 0..<cell.height {
                let from = 4 * y * cell.width, to = 4 * ((origin.y + y) * sheetPicture.width + origin.x)
                sheetPicture.pixels.replaceSubrange(to..<(to + 4 * cell.width), with: scaled.pixels[from..<(from + 4 * cell.width)])
            }
            // Under the cell, not over it: the picture is shown whole.
            TimeLabel.draw(time, into: &sheetPicture, x: origin.x, y: origin.y + cell.height, scale: scale)
        }
        picture = sheetPicture
    }

    func finish() throws {
        guard let picture else { throw SlicevidError(.outputFailed, "\(output: target.destination): the frame it shows was never rendered") }
        do {
            switch plan.codec {
            case .mjpeg: try StillWriter.write(picture, to: target.temporaryPath, file: target.file, format: .jpeg)
            case .webp: try StillWriter.write(picture, to: target.temporaryPath, file: target.file, format: .webp)
            default:
                // A PNG storyboard goes through the same encoder as a PNG poster: RGB, or RGBA
                // only where the background is transparent.
                let layout: PixelLayout = plan.keepsAlpha ? .gbrap : .gbrp
                let writer = try VideoWriter(plan: plan.picturePlan, path: target.temporaryPath, file: target.file, inputLayout: layout)
                try writer.write(picture.planar(layout), index: 0)
                try writer.finish()
            }
        } catch {
            throw SlicevidError(.outputFailed, "\(output: target.destination): \(error.message)")
        }
    }
}
