// Where an output really lands: two paths name the same output when their folders are one
// folder behind symlinks (`out/x.mp4` and `outlink/x.mp4` with outlink → out), or when one
// sequence could write a file the other writes.

import Foundation
import Glibc
import SliceKit

/// An output path with its folder resolved through every symlink.
package struct OutputPlace {
    /// The path as given.
    package let path: String
    /// The folder, resolved (as given, standardised, when it does not exist yet).
    package let folder: String
    /// The file name; for a sequence, its pattern.
    package let name: String
    /// A sequence's frame names, in the resolved folder; nil for a single file.
    package let frames: FramePattern?

    /// - Parameter destination: a file or a sequence (standard output and nothing have no place).
    package init?(_ destination: Output.Destination) {
        guard let path = destination.path else { return nil }
        self.path = path
        let url = URL(fileURLWithPath: path).standardizedFileURL
        name = url.lastPathComponent
        let given = url.deletingLastPathComponent().path
        folder = FileSystem.realpath(given) ?? given
        frames = if case .frames(let pattern) = destination { pattern.inFolder(folder) } else { nil }
    }

    /// Whether this output and `other` could write the same file.
    package func overlaps(_ other: OutputPlace) -> Bool {
        guard folder == other.folder else { return false }
        switch (frames, other.frames) {
        case (nil, nil): return name == other.name
        case let (frames?, nil): return frames.index(of: other.name) != nil
        case let (nil, frames?): return frames.index(of: name) != nil
        case let (mine?, theirs?): return mine.overlaps(theirs)
        }
    }
}
