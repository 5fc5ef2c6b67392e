// The scheduler recipes in examples/ are real files a scheduler accepts: the Kubernetes Job is
// checked against Kubernetes' OpenAPI schema and the AWS Batch job definition against botocore's
// model (packaging/check-recipes.py, offline, from the venv `make test` installs), each check
// shown to fail on a misspelled or misplaced field; and every recipe retries exactly the exit
// codes slicevid calls retryable.

import Foundation
@testable import SlicevidCLI
import Testing

@Suite("scheduler recipes", .timeLimit(.minutes(10)))
struct RecipeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL.path
    static let job = root + "/examples/kubernetes/campaign-job.yaml"
    static let definition = root + "/examples/aws-batch/job-definition.json"
    static let sbatch = root + "/examples/slurm/campaign.sbatch"

    /// The venv `make test` fills with kubernetes-validate and botocore.
    static func python() throws -> String {
        let python = root + "/.build/recipe-check/bin/python"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw HarnessError("\(python) is missing: run make test, which installs kubernetes-validate and botocore there from PyPI")
        }
        return python
    }

    /// Runs check-recipes.py on `text` (written to a scratch file named like `original`).
    private func check(_ kind: String, _ text: String, like original: String) throws -> CLIResult {
        try withScratchFolder { folder in
            let file = folder + "/" + URL(fileURLWithPath: original).lastPathComponent
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            return try CLI.run([Self.root + "/packaging/check-recipes.py", kind, file], in: folder, executable: try Self.python())
        }
    }

    private func replacing(_ text: String, _ old: String, _ new: String) throws -> String {
        try #require(text.contains(old), "the recipe no longer holds \(old)")
        return text.replacingOccurrences(of: old, with: new)
    }

    @Test func theKubernetesJobMatchesTheAPISchemaAndAMistakeIsCaught() throws {
        let text = try String(contentsOfFile: Self.job, encoding: .utf8)
        let good = try check("kubernetes", text, like: Self.job)
        #expect(good.status == 0, "\(good.stdout)\(good)")
        let mistakes: [(String, String, String)] = [
            ("misspelled field", "  backoffLimitPerIndex: 3", "  backoffLimitPerIndx: 3"),
            ("field in the wrong place", "      restartPolicy: Never", "      restartPolicy: Never\n      backoffLimitPerIndex: 3"),
            ("misspelled action", "action: FailIndex", "action: FailedIndex"),
            ("misspelled operator", "operator: NotIn", "operator: Notin"),
            ("wrong type", "values: [74, 75, 143]", "values: [\"74\", 75, 143]"),
            ("misspelled completion mode", "completionMode: Indexed", "completionMode: indexed"),
        ]
        for (what, old, new) in mistakes {
            let bad = try check("kubernetes", try replacing(text, old, new), like: Self.job)
            #expect(bad.status == 1 && !bad.stdout.isEmpty, "\(what) passed: \(bad.stdout)\(bad)")
        }
    }

    @Test func theAWSBatchJobDefinitionMatchesBotocoresModelAndAMistakeIsCaught() throws {
        let text = try String(contentsOfFile: Self.definition, encoding: .utf8)
        let good = try check("aws-batch", text, like: Self.definition)
        #expect(good.status == 0, "\(good.stdout)\(good)")
        let mistakes: [(String, String, String)] = [
            ("misspelled field", "\"evaluateOnExit\"", "\"evaluateOnExits\""),
            ("field in the wrong place", "\"timeout\": {", "\"attempts\": 4, \"timeout\": {"),
            ("wrong type", "\"attempts\": 4", "\"attempts\": \"4\""),
            ("misspelled condition", "\"onExitCode\": \"75\"", "\"onExitcode\": \"75\""),
        ]
        for (what, old, new) in mistakes {
            let bad = try check("aws-batch", try replacing(text, old, new), like: Self.definition)
            #expect(bad.status == 1 && !bad.stdout.isEmpty, "\(what) passed: \(bad.stdout)\(bad)")
        }
    }

    /// The retryable codes, as the recipes spell them.
    static let retryable = ExitCode.retryable.map(\.rawValue)

    @Test func everyRecipeRetriesExactlyTheRetryableCodes() throws {
        #expect(Self.retryable == [74, 75, 143])
        let job = try String(contentsOfFile: Self.job, encoding: .utf8)
        let kubernetes = try #require(job.firstMatch(of: /operator: NotIn\n\s+values: \[([0-9, ]+)\]/))
        #expect(kubernetes.output.1.split(separator: ",").compactMap { Int32($0.trimmingCharacters(in: .whitespaces)) } == Self.retryable)
        #expect(job.contains("action: FailIndex") && job.contains("type: DisruptionTarget") && job.contains("backoffLimitPerIndex:"))

        let data = try Data(contentsOf: URL(fileURLWithPath: Self.definition))
        let definition = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let rules = try #require((definition["retryStrategy"] as? [String: Any])?["evaluateOnExit"] as? [[String: String]])
        #expect(rules.filter { $0["action"] == "RETRY" }.compactMap { $0["onExitCode"] }.compactMap { Int32($0) } == Self.retryable)
        #expect(rules.last == ["onReason": "*", "action": "EXIT"], "anything else ends the job")

        let script = try String(contentsOfFile: Self.sbatch, encoding: .utf8)
        #expect(script.contains("    \(Self.retryable.map(String.init).joined(separator: "|"))) ") && script.contains("#SBATCH --requeue"))
        #expect(script.contains("--shard auto ") && script.contains("shard-$SLURM_ARRAY_TASK_ID.json"))
    }

    @Test func theDocsPageListsEveryCodeInItsClass() throws {
        let page = try String(contentsOfFile: Self.root + "/docs/operations-cluster.md", encoding: .utf8)
        // Rows of the class table: | 75 | retryable | … |
        var documented: [Int32: String] = [:]
        for match in page.matches(of: /\n\| ([0-9]+) \| (done|retryable|permanent) \|/) {
            documented[Int32(match.output.1)!] = String(match.output.2)
        }
        #expect(documented == Dictionary(uniqueKeysWithValues: ExitCode.allCases.map { ($0.rawValue, $0.retry.rawValue) }))
    }
}
