// `--shard K/N`: which jobs of a manifest this run renders, so any scheduler (Kubernetes Indexed
// Jobs, Slurm arrays, GNU parallel) can spread a campaign over machines without coordination.

import SliceKit
import SliceMedia

/// Shard `index` of `count`: the jobs whose id falls in the `index`-th of `count` equal slices
/// of the hash range.
///
/// The hash is the first 8 bytes (big-endian) of the SHA-256 of the id's UTF-8 bytes, and a job
/// belongs to shard ⌊hash × N / 2⁶⁴⌋ (multiply-shift: the high bits decide). Every bit of
/// SHA-256 depends on every byte of the id, so ids that differ only by a permutation or a digit
/// still spread evenly; slicevid 0.2.0 took FNV-1a 64 modulo N, whose lowest bit is the parity
/// of the id's bytes, and put all of `coffee-320x180`, `astro-180x320`, … in shard 0 of 2.
/// The mapping is fixed, documented and independent of job order, so the shards of one `N` are
/// disjoint and together hold every job exactly once, and adding a job never moves another one
/// to a different shard.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    /// Every job: shard 0 of 1.
    public static let all = Shard(uncheckedIndex: 0, count: 1)

    /// Environment variables read by `--shard auto/N`, in the order they are tried:
    /// Kubernetes Indexed Jobs, then Slurm job arrays.
    package static let indexVariables = ["JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"]

    /// What `--shard` accepts, for help and errors.
    package static let acceptedForms = "K/N with 0 ≤ K < N (e.g. 0/4), or auto/N to take K from \(indexVariables.joined(separator: " or "))"

    private init(uncheckedIndex index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Parses `K/N` or `auto/N`.
    /// - Parameters:
    ///   - text: the `--shard` value.
    ///   - environment: where `auto` looks for K (the process environment in the CLI).
    /// - Throws: `SlicevidError(.usage)` naming `--shard` (or the variable) and what is accepted.
    public init(parsing text: String, environment: [String: String]) throws(SlicevidError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, let count = Int(parts[1]), count >= 1 else {
            throw SlicevidError(.usage, "--shard: \(InputText.quoted(text)) is not valid; expected \(Shard.acceptedForms)")
        }
        var index: Int
        var source = "--shard"
        if parts[0] == "auto" {
            guard let variable = Shard.indexVariables.first(where: { environment[$0] != nil }) else {
                throw SlicevidError(.usage, "--shard \(InputText.quoted(text)): none of \(Shard.indexVariables.joined(separator: ", ")) is set; give K/N instead")
            }
            source = "\(variable) (for --shard \(InputText.quoted(text)))"
            guard let value = Int(environment[variable]!) else {
                throw SlicevidError(.usage, "\(source): \(InputText.quoted(environment[variable]!)) is not a whole number")
            }
            index = value
        } else {
            guard let value = Int(parts[0]) else {
                throw SlicevidError(.usage, "--shard: \(InputText.quoted(text)) is not valid; expected \(Shard.acceptedForms)")
            }
            index = value
        }
        guard (0..<count).contains(index) else {
            throw SlicevidError(.usage, "\(source): shard \(index) does not exist in \(count) shards; K counts from 0 to \(count - 1)")
        }
        self.init(uncheckedIndex: index, count: count)
    }

    /// Whether the job `id` belongs to this shard.
    package func contains(_ id: String) -> Bool {
        Shard.index(of: id, count: count) == index
    }

    /// The shard of `count` that the job `id` belongs to: the high 64 bits of hash × count.
    package static func index(of id: String, count: Int) -> Int {
        Int(hash(id).multipliedFullWidth(by: UInt64(count)).high)
    }

    /// The first 8 bytes of the SHA-256 of the UTF-8 bytes of `id`, big-endian.
    package static func hash(_ id: String) -> UInt64 {
        UInt64(SHA256.hex(of: id).prefix(16), radix: 16) ?? 0
    }

    /// `K/N`.
    public var description: String { "\(index)/\(count)" }
}
