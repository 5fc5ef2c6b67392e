// `--shard auto` and `auto/N` under each scheduler: the index (and count) it sets, and a usage
// error naming the variable for every doubtful case, so no shard runs twice and none never.

import Testing
@testable import SliceCampaign
@testable import SlicePipeline

@Suite struct ShardSchedulerTests {
    /// The shard `text` gives under `environment`, or the usage error's message.
    private func parse(_ text: String, _ environment: [String: String]) -> Result<Shard, SlicevidError> {
        do throws(SlicevidError) { return .success(try Shard(parsing: text, environment: environment)) } catch { return .failure(error) }
    }

    /// Expects a usage error whose one line names every word of `mentions`.
    private func expectRefused(_ text: String, _ environment: [String: String], naming mentions: [String],
                               sourceLocation: SourceLocation = #_sourceLocation) {
        switch parse(text, environment) {
        case .success(let shard):
            Issue.record("\(text) under \(environment) gave \(shard), expected a usage error", sourceLocation: sourceLocation)
        case .failure(let error):
            #expect(error.category == .usage, sourceLocation: sourceLocation)
            #expect(!error.message.contains("\n"), sourceLocation: sourceLocation)
            #expect(error.text.pieces.first == .setting(.shard), "\(error.message)", sourceLocation: sourceLocation)
            for word in mentions { #expect(error.message.contains(word), "should name \(word): \(error.message)", sourceLocation: sourceLocation) }
        }
    }

    private func shard(_ text: String, _ environment: [String: String]) throws -> Shard {
        try Shard(parsing: text, environment: environment)
    }

    @Test func eachSchedulersIndexGivesK() throws {
        #expect(try shard("auto/8", ["JOB_COMPLETION_INDEX": "5"]).description == "5/8")
        #expect(try shard("auto/8", ["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "7", "SLURM_ARRAY_TASK_COUNT": "8"]).description == "5/8")
        #expect(try shard("auto/8", ["AWS_BATCH_JOB_ARRAY_INDEX": "5"]).description == "5/8")
        #expect(try shard("auto/8", ["AWS_BATCH_JOB_ARRAY_INDEX": "5", "AWS_BATCH_JOB_ARRAY_SIZE": "8"]).description == "5/8")
        #expect(try shard("auto/8", ["CLOUD_RUN_TASK_INDEX": "5", "CLOUD_RUN_TASK_COUNT": "8"]).description == "5/8")
        #expect(try shard("auto/8", ["CLOUD_RUN_TASK_INDEX": "0"]).description == "0/8")
    }

    @Test func autoAloneTakesTheCountFromSchedulersThatSetIt() throws {
        #expect(try shard("auto", ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "3", "SLURM_ARRAY_TASK_COUNT": "4"]).description == "3/4")
        #expect(try shard("auto", ["CLOUD_RUN_TASK_INDEX": "2", "CLOUD_RUN_TASK_COUNT": "3"]).description == "2/3")
        #expect(try shard("auto", ["AWS_BATCH_JOB_ARRAY_INDEX": "9", "AWS_BATCH_JOB_ARRAY_SIZE": "10"]).description == "9/10")
    }

    @Test func autoAloneNeedsNWhereTheSchedulerDoesNotSayIt() {
        // Kubernetes keeps the completions count in the Job's spec, not in the pod's environment.
        expectRefused("auto", ["JOB_COMPLETION_INDEX": "1"], naming: ["JOB_COMPLETION_INDEX", "auto/N"])
        // AWS Batch without its size variable (an older agent), Cloud Run without its count.
        expectRefused("auto", ["AWS_BATCH_JOB_ARRAY_INDEX": "1"], naming: ["AWS_BATCH_JOB_ARRAY_SIZE", "auto/N"])
        expectRefused("auto", ["CLOUD_RUN_TASK_INDEX": "1"], naming: ["CLOUD_RUN_TASK_COUNT", "auto/N"])
        expectRefused("auto", ["SLURM_ARRAY_TASK_ID": "1"], naming: ["SLURM_ARRAY_TASK_COUNT", "auto/N"])
    }

    @Test func aSlurmArrayNotStartingAtZeroIsNoShardCount() throws {
        // --array=1-4: the count is 4, but the indices are not the shards 0…3.
        let oneToFour = ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "4", "SLURM_ARRAY_TASK_COUNT": "4"]
        expectRefused("auto", oneToFour, naming: ["SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_COUNT=4", "1…4"])
        // The same array with auto/4: task 4 would be shard 4 of 4, so every task refuses, not only the last.
        expectRefused("auto/4", oneToFour, naming: ["SLURM_ARRAY_TASK_MAX=4", "0…3", "--array=0-3"])
        // An array resubmitted for one index (sbatch --array=2) counts 1: auto alone would be 0/1, the whole campaign.
        let resubmitted = ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "2", "SLURM_ARRAY_TASK_MAX": "2", "SLURM_ARRAY_TASK_COUNT": "1"]
        expectRefused("auto", resubmitted, naming: ["SLURM_ARRAY_TASK_COUNT=1", "auto/N"])
        #expect(try shard("auto/4", resubmitted).description == "2/4")
        // A part of the shards (--array=4-7 of 8; a step, --array=0-7:2) is fine with auto/N.
        #expect(try shard("auto/8", ["SLURM_ARRAY_TASK_ID": "6", "SLURM_ARRAY_TASK_MIN": "4", "SLURM_ARRAY_TASK_MAX": "7", "SLURM_ARRAY_TASK_COUNT": "4"]).index == 6)
        let stepped = ["SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "6", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_STEP": "2"]
        #expect(try shard("auto/8", stepped).index == 4)
        expectRefused("auto", stepped, naming: ["0…6", "SLURM_ARRAY_TASK_COUNT=4"])
    }

    @Test func aMissingVariableIsNamed() {
        for text in ["auto", "auto/4"] {
            expectRefused(text, [:], naming: ["JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID", "AWS_BATCH_JOB_ARRAY_INDEX", "CLOUD_RUN_TASK_INDEX", "K/N"])
            // Another scheduler's unrelated variables do not count.
            expectRefused(text, ["SLURM_JOB_ID": "17", "AWS_BATCH_JOB_ID": "x"], naming: ["JOB_COMPLETION_INDEX"])
        }
    }

    @Test func aValueThatIsNotAWholeNumberIsNamed() {
        for value in ["", "x", "-1", "+1", " 1", "1 ", "1.0", "0x1", "1\n2"] {
            expectRefused("auto/4", ["JOB_COMPLETION_INDEX": value], naming: ["JOB_COMPLETION_INDEX", "not a whole number"])
            expectRefused("auto", ["CLOUD_RUN_TASK_INDEX": "0", "CLOUD_RUN_TASK_COUNT": value], naming: ["CLOUD_RUN_TASK_COUNT"])
        }
        expectRefused("auto", ["CLOUD_RUN_TASK_INDEX": "0", "CLOUD_RUN_TASK_COUNT": "0"], naming: ["CLOUD_RUN_TASK_COUNT=0"])
        // A control character from the environment never reaches the message raw.
        switch parse("auto/4", ["JOB_COMPLETION_INDEX": "1\u{1B}[2J"]) {
        case .success: Issue.record("accepted an escape sequence")
        case .failure(let error): #expect(!error.message.contains("\u{1B}") && error.message.contains("\\u{1B}"))
        }
    }

    @Test func aWholeNumberTooLargeIsCalledTooLargeNamingWhatIsAccepted() throws {
        // A huge count was "not a whole number"; it is one, too large for a number of shards.
        for value in ["99999999999999999999", "100001", String(repeating: "9", count: 400)] {
            expectRefused("auto", ["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "3", "SLURM_ARRAY_TASK_COUNT": value],
                          naming: ["SLURM_ARRAY_TASK_COUNT=", "is too large", "at most 100000 shards"])
            expectRefused("auto/4", ["JOB_COMPLETION_INDEX": value], naming: ["JOB_COMPLETION_INDEX=", "is too large", "numbered 0…99999"])
            expectRefused("0/" + value, [:], naming: ["is too large", "at most 100000 shards"])
        }
        #expect(try shard("auto", ["CLOUD_RUN_TASK_INDEX": "99999", "CLOUD_RUN_TASK_COUNT": "100000"]).description == "99999/100000")
        #expect(try shard("auto", ["CLOUD_RUN_TASK_INDEX": "007", "CLOUD_RUN_TASK_COUNT": "0008"]).description == "7/8")
        switch parse("auto", ["CLOUD_RUN_TASK_INDEX": "0", "CLOUD_RUN_TASK_COUNT": String(repeating: "9", count: 400)]) {
        case .success: Issue.record("accepted a count of 400 digits")
        case .failure(let error): #expect(!error.message.contains("not a whole number") && error.message.split(separator: "\n").count == 1)
        }
    }

    @Test func anIndexOutOfRangeIsNamed() {
        expectRefused("auto/4", ["JOB_COMPLETION_INDEX": "4"], naming: ["JOB_COMPLETION_INDEX=4", "0…3"])
        expectRefused("auto/4", ["AWS_BATCH_JOB_ARRAY_INDEX": "17"], naming: ["AWS_BATCH_JOB_ARRAY_INDEX=17", "0…3"])
        expectRefused("auto", ["CLOUD_RUN_TASK_INDEX": "3", "CLOUD_RUN_TASK_COUNT": "3"], naming: ["CLOUD_RUN_TASK_INDEX=3", "0…2", "CLOUD_RUN_TASK_COUNT=3"])
    }

    @Test func twoVariablesThatDisagreeAreBothNamed() {
        expectRefused("auto/4", ["JOB_COMPLETION_INDEX": "1", "SLURM_ARRAY_TASK_ID": "3"], naming: ["JOB_COMPLETION_INDEX=1", "SLURM_ARRAY_TASK_ID=3", "disagree"])
        expectRefused("auto/4", ["AWS_BATCH_JOB_ARRAY_INDEX": "0", "CLOUD_RUN_TASK_INDEX": "2"], naming: ["AWS_BATCH_JOB_ARRAY_INDEX=0", "CLOUD_RUN_TASK_INDEX=2"])
        // Counts: two schedulers' counts, or the flag's N and a count that cannot be a part of the shards.
        expectRefused("auto", ["AWS_BATCH_JOB_ARRAY_INDEX": "0", "AWS_BATCH_JOB_ARRAY_SIZE": "4", "CLOUD_RUN_TASK_INDEX": "0", "CLOUD_RUN_TASK_COUNT": "8"],
                      naming: ["AWS_BATCH_JOB_ARRAY_SIZE=4", "CLOUD_RUN_TASK_COUNT=8"])
        expectRefused("auto/8", ["CLOUD_RUN_TASK_INDEX": "1", "CLOUD_RUN_TASK_COUNT": "4"], naming: ["CLOUD_RUN_TASK_COUNT=4", "8 shards"])
        expectRefused("auto/8", ["AWS_BATCH_JOB_ARRAY_INDEX": "1", "AWS_BATCH_JOB_ARRAY_SIZE": "16"], naming: ["AWS_BATCH_JOB_ARRAY_SIZE=16", "8 shards"])
    }

    @Test func theAcceptedFormsNameEveryScheduler() {
        for scheduler in Shard.schedulers {
            #expect(Shard.acceptedForms.contains(scheduler.index))
            if let count = scheduler.count { #expect(Shard.acceptedForms.contains(count)) }
        }
    }
}
