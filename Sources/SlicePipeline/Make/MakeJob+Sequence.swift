// The sequence of transitions a make request renders between its stills.

import SliceKit

extension MakeJob {
    /// The request's sequence, checked: its own, or one derived from `spec` for its stills
    /// (two for `--from/--to` and the demo cards, so those stay single clips).
    /// - Throws: `SlicevidError(.usage)` naming the field that is out of range or disagrees
    ///   with `spec`.
    static func resolvedSequence(_ request: MakeRequest) throws(SlicevidError) -> SequenceSpec {
        let imageCount = request.stills.count
        var sequence = request.sequence ?? SequenceSpec(base: request.spec, imageCount: imageCount)
        guard sequence.imageCount == imageCount else {
            throw SlicevidError(.usage, "the sequence has settings for \(sequence.imageCount) images but \(imageCount) were given")
        }
        for (index, motion) in request.stillMotions.sorted(by: { $0.key < $1.key }) {
            guard (0..<imageCount).contains(index) else {
                throw SlicevidError(.usage, "\(setting: SpecField.motion.setting): image \(index) has a motion of its own, but the images are 0…\(imageCount - 1)")
            }
            sequence.setMotion(motion, ofImage: index)
        }
        do {
            try sequence.validate()
        } catch {
            throw SlicevidError(.usage, error.text)
        }
        for field in SequenceSpec.sharedFields where sequence.segments[0].text(of: field) != request.spec.text(of: field) {
            throw SlicevidError(.usage, "\(setting: field.setting): the sequence's transitions use \(sequence.segments[0].text(of: field)), the clip \(request.spec.text(of: field)); they must agree")
        }
        return sequence
    }
}
