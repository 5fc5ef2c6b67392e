// A storyboard's grid (`-o board.png:sheet=4x2`): C × R frames of the clip, evenly spaced from
// the first to the last, each scaled into a cell with its time in a strip under it (never over
// the picture, which a label would hide: a price, a logo), on one picture, so a clip can be
// reviewed without a player.

import SliceKit

/// The layout of a storyboard.
public struct Sheet: Sendable, Equatable, CustomStringConvertible {
    package let columns: Int
    package let rows: Int

    /// Columns and rows accepted, each.
    package static let sides = 1...16
    /// The widest a sheet's row of cells gets, before the gaps: cells shrink to fit it.
    package static let maximumWidth = 1920
    /// Pixels between cells and around them.
    package static let gap = 4

    /// Parses `CxR` (`4x2`), each side 1…16.
    package init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]),
              Sheet.sides.contains(columns), Sheet.sides.contains(rows) else { return nil }
        self.columns = columns
        self.rows = rows
    }

    public var description: String { "\(columns)x\(rows)" }

    /// Frames shown.
    package var count: Int { columns * rows }

    /// The rendered frames the cells show, in reading order: evenly spaced over the clip, the
    /// first and the last included (one cell shows the last frame, the destination).
    package func frames(of renderFrames: Int) -> [Int] {
        guard count > 1 else { return [max(0, renderFrames - 1)] }
        return (0..<count).map { cell in (cell * (renderFrames - 1) * 2 + (count - 1)) / (2 * (count - 1)) }
    }

    /// One cell's size for frames of `width` × `height`: no wider than the frame, nor than
    /// `maximumWidth` shared by the columns; even, the frame's aspect kept.
    package func cell(width: Int, height: Int) -> (width: Int, height: Int) {
        let cellWidth = max(2, min(width, Sheet.maximumWidth / columns) & ~1)
        let cellHeight = max(2, Int((Double(cellWidth) * Double(height) / Double(width) / 2).rounded()) * 2)
        return (cellWidth, cellHeight)
    }

    /// The pixels per font pixel of the time labels under cells of `width` × `height` frames.
    package func labelScale(width: Int, height: Int) -> Int { max(1, cell(width: width, height: height).height / 48) }

    /// The height of the strip under each cell that holds its time label.
    package func labelHeight(width: Int, height: Int) -> Int {
        TimeLabel.size(of: "0", scale: labelScale(width: width, height: height)).height
    }

    /// The whole picture's size for frames of `width` × `height`.
    package func size(width: Int, height: Int) -> (width: Int, height: Int) {
        let cell = cell(width: width, height: height)
        let row = cell.height + labelHeight(width: width, height: height)
        return (columns * cell.width + (columns + 1) * Sheet.gap, rows * row + (rows + 1) * Sheet.gap)
    }

    /// Where cell `index` (reading order) starts; its label starts `cell.height` below.
    package func origin(ofCell index: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        let cell = cell(width: width, height: height)
        let row = cell.height + labelHeight(width: width, height: height)
        return (Sheet.gap + (index % columns) * (cell.width + Sheet.gap), Sheet.gap + (index / columns) * (row + Sheet.gap))
    }
}
