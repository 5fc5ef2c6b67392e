// Shards: the documented hash, the accepted specs, and shards 0..N-1 partitioning any jobs.

import Testing
@testable import SliceCampaign
@testable import SlicePipeline

@Suite struct ShardTests {
    @Test func theHashIsTheFirstEightBytesOfSHA256OfTheUTF8Id() {
        // FIPS 180-2 test vectors: SHA-256("") = e3b0c442 98fc1c14…, SHA-256("abc") = ba7816bf 8f01cfea….
        #expect(Shard.hash("") == 0xe3b0_c442_98fc_1c14)
        #expect(Shard.hash("abc") == 0xba78_16bf_8f01_cfea)
        // Multiply-shift: the high bits pick the shard, so hash / 2⁶⁴ × N rounded down.
        #expect(Shard.index(of: "abc", count: 2) == 1) // 0xba… ≥ 2⁶³
        #expect(Shard.index(of: "", count: 4) == 3) // 0xe3… is in the top quarter
        #expect(Shard.index(of: "abc", count: 4) == 2)
    }

    /// The campaign: 3 aspect ratios × 2 products, all in shard 0 of 2 under FNV-1a mod 2.
    static let campaignIds = ["coffee-320x180", "coffee-180x320", "coffee-240x240", "astro-320x180", "astro-180x320", "astro-240x240"]

    @Test func permutedIdsSplitEvenlyOverTwoShards() {
        let counts = (0..<2).map { k in Self.campaignIds.filter { Shard.index(of: $0, count: 2) == k }.count }
        #expect(counts.allSatisfy { (2...4).contains($0) }, "\(counts)")
    }

    @Test func aThousandGeneratedIdsSpreadWithinTwentyPercentOverEightShards() {
        // Ids as campaigns make them: product, market and size, differing in a digit or two.
        let products = ["coffee", "astro", "tea", "juice", "bike"], markets = ["us", "uk", "de", "fr", "jp"]
        let sizes = ["320x180", "180x320", "240x240", "1920x1080", "1080x1920", "1080x1080", "640x360", "360x640"]
        var ids: [String] = []
        for index in 0..<1000 {
            ids.append("\(products[index % 5])-\(markets[(index / 5) % 5])-\(sizes[(index / 25) % 8])-v\(index / 200)")
        }
        #expect(Set(ids).count == 1000)
        var counts = [Int](repeating: 0, count: 8)
        for id in ids { counts[Shard.index(of: id, count: 8)] += 1 }
        let mean = 1000.0 / 8
        #expect(counts.allSatisfy { abs(Double($0) - mean) <= 0.2 * mean }, "\(counts)")
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
        for text in ["3/2", "2/2", "0/0", "a/b", "-1/2", "+1/2", "1/+2", " 1/2", "1", "1/2/3", "/2", "1/", "auto/0", "auto/", "Auto", "auto/x"] {
            #expect(throws: SlicevidError.self, "\(text)") { try Shard(parsing: text, environment: [:]) }
            do {
                _ = try Shard(parsing: text, environment: [:])
            } catch {
                #expect(error.category == .usage)
                #expect(error.text.pieces.first == .setting(.shard), "\(error.message)")
            }
        }
    }

    @Test func autoTakesTheIndexFromTheScheduler() throws {
        #expect(try Shard(parsing: "auto/4", environment: ["JOB_COMPLETION_INDEX": "2"]) == Shard(parsing: "2/4", environment: [:]))
        #expect(try Shard(parsing: "auto/4", environment: ["SLURM_ARRAY_TASK_ID": "3"]).index == 3)
        // Two schedulers' variables may both be set only when they agree (Shard+SchedulerTests).
        #expect(try Shard(parsing: "auto/4", environment: ["SLURM_ARRAY_TASK_ID": "1", "JOB_COMPLETION_INDEX": "1"]).index == 1)
        for environment in [[:], ["JOB_COMPLETION_INDEX": "4"], ["SLURM_ARRAY_TASK_ID": "x"]] {
            #expect(throws: SlicevidError.self) { try Shard(parsing: "auto/4", environment: environment) }
        }
    }
}
