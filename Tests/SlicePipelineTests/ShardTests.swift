// Shards: the documented hash, the accepted specs, and shards 0..N-1 partitioning any jobs.

import Testing
@testable import SlicePipeline

@Suite struct ShardTests {
    @Test func theHashIsFNV1a64OfTheUTF8Id() {
        // Reference values of FNV-1a 64 (Fowler/Noll/Vo test suite).
        #expect(Shard.hash("") == 0xcbf2_9ce4_8422_2325)
        #expect(Shard.hash("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(Shard.hash("foobar") == 0x8594_4171_f739_67e8)
    }

    @Test func shardsPartitionTheJobsExactly() throws {
        let ids = (0..<500).map { "promo-\($0)" } + ["summer-sale", "é-accent", ""]
        for count in [1, 2, 3, 7] {
            let shards = try (0..<count).map { try Shard(parsing: "\($0)/\(count)", environment: [:]) }
            for id in ids {
                #expect(shards.filter { $0.contains(id) }.count == 1, "\(id) is in exactly one of \(count) shards")
            }
            if count > 1 {
                // Every shard gets some work: the hash spreads ids.
                #expect(shards.allSatisfy { shard in ids.contains { shard.contains($0) } })
            }
        }
    }

    @Test func badSpecsAreUsageErrors() {
        for text in ["3/2", "2/2", "0/0", "a/b", "-1/2", "1", "1/2/3", "/2", "1/", "auto/0"] {
            #expect(throws: SlicevidError.self, "\(text)") { try Shard(parsing: text, environment: [:]) }
            do {
                _ = try Shard(parsing: text, environment: [:])
            } catch {
                #expect(error.category == .usage)
                #expect(error.message.hasPrefix("--shard"))
            }
        }
    }

    @Test func autoTakesTheIndexFromTheScheduler() throws {
        #expect(try Shard(parsing: "auto/4", environment: ["JOB_COMPLETION_INDEX": "2"]) == Shard(parsing: "2/4", environment: [:]))
        #expect(try Shard(parsing: "auto/4", environment: ["SLURM_ARRAY_TASK_ID": "3"]).index == 3)
        // Kubernetes first, when both are set.
        #expect(try Shard(parsing: "auto/4", environment: ["SLURM_ARRAY_TASK_ID": "3", "JOB_COMPLETION_INDEX": "1"]).index == 1)
        for environment in [[:], ["JOB_COMPLETION_INDEX": "4"], ["SLURM_ARRAY_TASK_ID": "x"]] {
            #expect(throws: SlicevidError.self) { try Shard(parsing: "auto/4", environment: environment) }
        }
    }
}
