// The prune brake: one run may delete at most a share (or a number) of the campaign's outputs, as
// rsync's --max-delete caps what one run removes. A feed export cut short to one row would
// otherwise make the nightly `--prune` delete nearly every product's clips; with the brake the run
// keeps them all, says so in one line with the counts, and exits with a code of its own.

import SliceKit
import SlicePipeline

/// How many outputs one `--prune` may delete (`--prune-max`): a share of the campaign's outputs,
/// or a number of them.
public enum PruneLimit: Sendable, Equatable, CustomStringConvertible {
    /// At most this percentage (0–100) of the campaign's outputs.
    case percent(Int)
    /// At most this many outputs.
    case count(Int)

    /// The limit when none is given: a quarter of the campaign's outputs.
    public static let standard = PruneLimit.percent(25)
    /// The largest count accepted: as many outputs as a manifest's jobs can write.
    public static let largestCount = 100_000_000

    /// `25%` or `40`, as `--prune-max` takes it.
    /// - Throws: `SlicevidError(.usage)` naming the setting and what is accepted.
    public init(parsing text: String) throws(SlicevidError) {
        let digits = text.hasSuffix("%") ? String(text.dropLast()) : text
        // Digits only: no sign, no spaces, no fraction, and a length that cannot overflow.
        guard !digits.isEmpty, digits.count <= 9, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int(digits) else {
            throw SlicevidError(.usage, "\(setting: .pruneMax): \(InputText.quoted(text)) is not a share or a count; give a whole percentage 0–100 followed by % (25%) or a whole number of outputs 0–\(PruneLimit.largestCount)")
        }
        if text.hasSuffix("%") {
            guard value <= 100 else {
                throw SlicevidError(.usage, "\(setting: .pruneMax): \(InputText.quoted(text)) is more than all of them; give a whole percentage 0–100")
            }
            self = .percent(value)
        } else {
            guard value <= PruneLimit.largestCount else {
                throw SlicevidError(.usage, "\(setting: .pruneMax): \(InputText.quoted(text)) is more than a manifest can write; give a whole number 0–\(PruneLimit.largestCount)")
            }
            self = .count(value)
        }
    }

    /// `25%` or `40`: the form it is given in.
    public var description: String {
        switch self {
        case .percent(let share): "\(share)%"
        case .count(let count): "\(count)"
        }
    }

    /// Whether one run may delete `deleting` of the campaign's `outputs`.
    package func allows(_ deleting: Int, of outputs: Int) -> Bool {
        guard deleting > 0 else { return true }
        switch self {
        // Whole numbers, so no rounding decides: deleting / outputs <= share / 100.
        case .percent(let share): return deleting * 100 <= share * max(outputs, deleting)
        case .count(let count): return deleting <= count
        }
    }
}

/// What a prune would delete against what the brake allows.
public struct PruneBrake: Sendable, Equatable {
    /// The orphans a prune would delete (those whose sidecars license it).
    public let deleting: Int
    /// The campaign's outputs: those its jobs write now, and the orphans found.
    public let outputs: Int
    /// The most one run may delete.
    public let limit: PruneLimit

    /// The verdict on deleting `deleting` of `outputs` under `limit`.
    package init(deleting: Int, outputs: Int, limit: PruneLimit) {
        (self.deleting, self.outputs, self.limit) = (deleting, outputs, limit)
    }

    /// Whether the brake stops the prune: it would delete more than the limit allows.
    public var holds: Bool { !limit.allows(deleting, of: outputs) }

    /// `11 of 24 outputs (45.9%)`: what a prune would delete, its share rounded up to a tenth,
    /// so a share over the limit never reads as the limit.
    public var counts: String {
        let tenths = outputs > 0 ? (deleting * 1000 + outputs - 1) / outputs : 0
        let share = tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
        return "\(deleting) of \(outputs) output\(outputs == 1 ? "" : "s") (\(share)%)"
    }

    /// The brake as the report gives it.
    package var json: [String: Any] {
        ["deleting": deleting, "outputs": outputs, "limit": limit.description, "held": holds]
    }
}
