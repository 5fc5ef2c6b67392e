// How a make request names its stills (`--from/--to`, positional images, or none for the demo)
// and the sequence of transitions it renders between them.

import SliceKit

extension MakeRequest {
    /// The stills to render, in order: `images`, or `from` and `to`; empty for the demo cards.
    var stillPaths: [String] {
        images.isEmpty ? [from, to].compactMap { $0 } : images
    }
}

extension MakeJob {
    /// Refuses mixing positional images with `--from/--to`, and a sequence of one image.
    static func validateImages(_ request: MakeRequest) throws(SlicevidError) {
        guard !request.images.isEmpty else { return }
        if request.from != nil || request.to != nil {
            throw SlicevidError(.usage, "give the stills either as images (slicevid make a.jpg b.jpg …) or with --from and --to, not both")
        }
        if request.images.count == 1 {
            throw SlicevidError(.usage, "\(request.images[0]): a sequence needs at least two images; add another, or use --from and --to")
        }
    }

    /// The request's sequence, checked: its own, or one derived from `spec` for its stills
    /// (two for `--from/--to` and the demo cards, so those stay single clips).
    /// - Throws: `SlicevidError(.usage)` naming the field that is out of range or disagrees
    ///   with `spec`.
    static func resolvedSequence(_ request: MakeRequest) throws(SlicevidError) -> SequenceSpec {
        let imageCount = max(2, request.stillPaths.count)
        let sequence = request.sequence ?? SequenceSpec(base: request.spec, imageCount: imageCount)
        guard sequence.imageCount == imageCount else {
            throw SlicevidError(.usage, "the sequence has settings for \(sequence.imageCount) images but \(imageCount) were given")
        }
        do {
            try sequence.validate()
        } catch {
            throw SlicevidError(.usage, error.description)
        }
        for field in SequenceSpec.sharedFields where sequence.segments[0].text(of: field) != request.spec.text(of: field) {
            throw SlicevidError(.usage, "--\(field.rawValue): the sequence's transitions use \(sequence.segments[0].text(of: field)), the clip \(request.spec.text(of: field)); they must agree")
        }
        return sequence
    }
}
