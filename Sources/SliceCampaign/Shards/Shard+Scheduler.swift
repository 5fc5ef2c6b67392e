// `--shard auto` and `auto/N`: the scheduler that started this process says which shard it is
// (and, for some, how many there are). Anything doubtful is a usage error naming the variable,
// because a wrong guess renders some jobs twice and others never.

import SliceKit
import SlicePipeline

extension Shard {
    /// A scheduler that starts one process per shard and tells each its index in the environment.
    package struct Scheduler: Sendable {
        /// Its name, as the docs and errors give it.
        package let name: String
        /// The variable holding this process's index, from 0.
        package let index: String
        /// The variable holding the number of processes, when the scheduler sets one.
        package let count: String?
        /// Slurm's first and last array index: its count is the number of shards only when the
        /// array is 0…count−1 (an array resubmitted for one index has a count of 1).
        package let bounds: (first: String, last: String)?
    }

    /// The schedulers `auto` knows, in the order errors list them.
    package static let schedulers = [
        // The completions count is in the Job's spec only, not in the pod's environment.
        Scheduler(name: "Kubernetes Indexed Job", index: "JOB_COMPLETION_INDEX", count: nil, bounds: nil),
        Scheduler(name: "Slurm job array", index: "SLURM_ARRAY_TASK_ID", count: "SLURM_ARRAY_TASK_COUNT",
                  bounds: ("SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX")),
        Scheduler(name: "AWS Batch array job", index: "AWS_BATCH_JOB_ARRAY_INDEX", count: "AWS_BATCH_JOB_ARRAY_SIZE", bounds: nil),
        Scheduler(name: "Cloud Run job", index: "CLOUD_RUN_TASK_INDEX", count: "CLOUD_RUN_TASK_COUNT", bounds: nil),
    ]

    /// The shard the scheduler's variables name.
    /// - Parameters:
    ///   - count: N from `auto/N`, or nil for `auto`, which takes N from the scheduler.
    ///   - given: the shard setting as given (`--shard 'auto/4'`), for the messages.
    /// - Throws: `SlicevidError(.usage)` naming the variable that is missing, not a whole
    ///   number, too large or out of range, both variables of two that disagree, or the flag and the
    ///   variable when N and the scheduler's count differ.
    static func fromScheduler(count: Int?, given: ErrorText, environment: [String: String]) throws(SlicevidError) -> Shard {
        func fail(_ message: ErrorText) -> SlicevidError { SlicevidError(.usage, "\(given): \(message)") }
        func number(_ variable: String) throws(SlicevidError) -> Int? {
            guard let text = environment[variable] else { return nil }
            switch Shard.number(text) {
            case .whole(let value): return value
            case .tooLarge: throw fail("\(variable)=\(InputText.quoted(text)) is too large; \(Shard.countLimit)")
            case .notWhole: throw fail("\(variable)=\(InputText.quoted(text)) is not a whole number ≥ 0")
            }
        }
        let present = schedulers.filter { environment[$0.index] != nil }
        guard !present.isEmpty else {
            throw fail("none of \(indexVariables.joined(separator: ", ")) is set (no scheduler started this process?); give K/N instead")
        }
        var indices: [(variable: String, value: Int)] = []
        for scheduler in present { if let value = try number(scheduler.index) { indices.append((scheduler.index, value)) } }
        if let other = indices.first(where: { $0.value != indices[0].value }) {
            throw fail("\(indices[0].variable)=\(indices[0].value) and \(other.variable)=\(other.value) disagree on the shard; unset the one that is not this scheduler's")
        }
        let index = indices[0]

        // N: the flag's, checked against what the scheduler says, or the scheduler's alone.
        var counts: [(variable: String, value: Int)] = []
        for scheduler in present {
            guard let variable = scheduler.count else {
                if count == nil {
                    throw fail("\(scheduler.index) is set, but a \(scheduler.name) does not put the number of shards in the environment; give \(setting: .shard) auto/N (N = the number of completions)")
                }
                continue
            }
            guard let value = try number(variable) else {
                if count == nil { throw fail("\(variable) is not set, so the number of shards is unknown; give \(setting: .shard) auto/N") }
                continue
            }
            guard value >= 1 else { throw fail("\(variable)=0 is not a number of shards") }
            if let bounds = scheduler.bounds {
                let first = try number(bounds.first), last = try number(bounds.last)
                if let count {
                    // auto/N: a Slurm array may hold some of the shards (--array=4-7 of 8), never more.
                    for (variable, value) in [(bounds.first, first), (bounds.last, last)] {
                        if let value, value >= count {
                            throw fail("\(variable)=\(value) is outside 0…\(count - 1): a \(scheduler.name)'s indices are the shards, so run it as --array=0-\(count - 1) (or a part of that)")
                        }
                    }
                    continue
                }
                if first != 0 || last != value - 1 {
                    let range = "\(first.map(String.init) ?? "?")…\(last.map(String.init) ?? "?")"
                    throw fail("the array runs \(range) (\(bounds.first), \(bounds.last)), so \(variable)=\(value) is not the number of shards; give \(setting: .shard) auto/N")
                }
            } else if let count, value != count {
                throw fail("\(variable)=\(value), but \(setting: .shard) says \(count) shards: every task of a \(scheduler.name) is one shard, so they must agree; give \(setting: .shard) auto to take \(value)")
            }
            counts.append((variable, value))
        }
        if let other = counts.first(where: { $0.value != counts[0].value }) {
            throw fail("\(counts[0].variable)=\(counts[0].value) and \(other.variable)=\(other.value) disagree on the number of shards; unset the one that is not this scheduler's")
        }
        // The loop above throws for `auto` unless a count was found.
        let shards = count ?? counts[0].value
        guard index.value < shards else {
            let from = count == nil ? "\(counts[0].variable)=\(shards)" : "\(shards) shards"
            throw fail("\(index.variable)=\(index.value) is outside 0…\(shards - 1) (\(from)); shards count from 0")
        }
        return Shard(uncheckedIndex: index.value, count: shards)
    }
}
