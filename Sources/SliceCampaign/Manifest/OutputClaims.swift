// Which job writes each output of a manifest, so two jobs (or one job twice) never share a file.
// Kept by resolved folder and file name, so a campaign of thousands of expanded jobs is checked
// in a lookup per output rather than a comparison with every other output.

import SlicePipeline

/// The outputs claimed so far, by the folder they land in.
package struct OutputClaims {
    private struct Folder {
        /// Single files by name.
        var files: [String: (place: OutputPlace, job: String)] = [:]
        /// Sequences, which may overlap files and each other by pattern.
        var sequences: [(place: OutputPlace, job: String)] = []
    }

    private var folders: [String: Folder] = [:]

    package init() {}

    /// The output already claimed that `place` would write over, and its job; nil when free.
    package func conflict(with place: OutputPlace) -> (place: OutputPlace, job: String)? {
        guard let folder = folders[place.folder] else { return nil }
        if place.frames == nil, let file = folder.files[place.name] { return file }
        if let sequence = folder.sequences.first(where: { $0.place.overlaps(place) }) { return sequence }
        guard place.frames != nil else { return nil }
        return folder.files.values.first { $0.place.overlaps(place) }
    }

    /// Records that `job` writes `place`.
    package mutating func claim(_ place: OutputPlace, by job: String) {
        if place.frames == nil {
            folders[place.folder, default: Folder()].files[place.name] = (place, job)
        } else {
            folders[place.folder, default: Folder()].sequences.append((place, job))
        }
    }
}
