// `--shard K/N`: which jobs of a manifest this run renders, so any scheduler (Kubernetes Indexed
// Jobs, Slurm arrays, AWS Batch, Cloud Run, GNU parallel) can spread a campaign over machines
// without coordination. `auto` reads K (and N) from the scheduler: Shard+Scheduler.swift.

import SliceKit
import SliceMedia
import SlicePipeline

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

    /// The index variables `--shard auto` reads, one per scheduler (`Shard.schedulers`).
    package static var indexVariables: [String] { schedulers.map(\.index) }

    /// What `--shard` accepts, for help and errors.
    package static var acceptedForms: String {
        "K/N with 0 ≤ K < N (e.g. 0/4), auto/N to take K from the scheduler (\(indexVariables.joined(separator: ", "))), "
            + "or auto to take N from it too (\(schedulers.compactMap(\.count).joined(separator: ", ")))"
    }

    init(uncheckedIndex index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Parses `K/N`, `auto/N` or `auto`.
    /// - Parameters:
    ///   - text: the `--shard` value.
    ///   - environment: where `auto` looks for K and N (the process environment in the CLI).
    /// - Throws: `SlicevidError(.usage)` naming `--shard` (or the variable) and what is accepted.
    public init(parsing text: String, environment: [String: String]) throws(SlicevidError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let invalid = SlicevidError(.usage, "\(setting: .shard): \(InputText.quoted(text)) is not valid; expected \(Shard.acceptedForms)")
        if parts == ["auto"] {
            self = try Shard.fromScheduler(count: nil, given: "\(setting: .shard) auto", environment: environment)
            return
        }
        if parts.count == 2, parts.contains(where: { Shard.number($0) == .tooLarge }) {
            throw SlicevidError(.usage, "\(setting: .shard): \(InputText.quoted(text)) is too large; \(Shard.countLimit)")
        }
        guard parts.count == 2, let count = Shard.wholeNumber(parts[1]), count >= 1 else { throw invalid }
        if parts[0] == "auto" {
            self = try Shard.fromScheduler(count: count, given: "\(setting: .shard) \(InputText.quoted(text))", environment: environment)
            return
        }
        guard let index = Shard.wholeNumber(parts[0]) else { throw invalid }
        guard index < count else {
            throw SlicevidError(.usage, "\(setting: .shard): shard \(index) does not exist in \(count) shards; K counts from 0 to \(count - 1)")
        }
        self.init(uncheckedIndex: index, count: count)
    }

    /// The most shards: a manifest makes at most `Manifest.maximumJobs` jobs, so more shards
    /// than that would only be empty ones.
    package static let maximumCount = Manifest.maximumJobs

    /// What a number too large for a shard is told: what is accepted.
    static var countLimit: String {
        "slicevid takes at most \(maximumCount) shards, numbered 0…\(maximumCount - 1) (a manifest makes at most \(Manifest.maximumJobs) jobs)"
    }

    /// What a shard number or count is written as.
    enum Number: Equatable {
        case whole(Int)
        /// Digits, but more than `maximumCount`.
        case tooLarge
        /// Not ASCII digits alone (a sign, a space, a fraction, nothing).
        case notWhole
    }

    /// Reads a whole number written in ASCII digits only (no sign, no spaces), up to `maximumCount`.
    static func number(_ text: String) -> Number {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return .notWhole }
        // Leading zeros aside, more than 18 digits is beyond any count, and beyond an Int.
        let digits = text.drop { $0 == "0" }
        guard digits.utf8.count <= 18, let value = Int(digits.isEmpty ? "0" : digits), value <= maximumCount else { return .tooLarge }
        return .whole(value)
    }

    /// A whole number written in ASCII digits only (no sign, no spaces), at most `maximumCount`;
    /// nil otherwise.
    package static func wholeNumber(_ text: String) -> Int? {
        if case .whole(let value) = number(text) { return value }
        return nil
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
