// `slicevid report merge shard-*.json -o campaign.json`: one report for a campaign that ran as
// shards, and a yes or no (0 or 1) on whether every job of the manifest is in it exactly once.
// `slicevid report html campaign.json -o index.html`: the morning page, a tile per job.

import Foundation
@_spi(ProcessHost) import Slicevid

/// Works on `batch --report` files.
struct ReportCommand: ParsableCommand {
    /// What `report` can do.
    enum Action: String, CaseIterable {
        case merge, html
    }

    /// The options `report` takes, declared once.
    enum Option {
        static let output = OptionSpec("output", short: "o", value: "FILE", kind: .path, help: "Write the merged report (merge) or the page (html) to FILE, atomically, replacing only an earlier slicevid report or page unless --force; or to standard output with -.")
        static let force = OptionSpec("force", short: "f", help: "Replace a file at -o that is not a slicevid report (merge) or report page (html); never a folder, device or FIFO.")
        static let quiet = OptionSpec("quiet", short: "q", help: "merge: print only what keeps the campaign from being whole; html: print only errors.")
    }

    static let spec = CommandSpec(
        name: "report",
        abstract: "Merge the reports of a campaign's shards into one, and say whether the campaign is whole; or make a report's page.",
        usage: "slicevid report merge REPORT... -o FILE|- [--force] [-q]; slicevid report html REPORT -o PAGE.html|- [--force] [-q]",
        options: [Option.output, Option.force, Option.quiet],
        discussion: """
        REPORT... are the --report files of one batch run's shards (--shard K/N, one report each). The merged report
        has a batch report's fields, the jobs of every shard in manifest order (each job's object as its shard wrote
        it), "shards" (each shard's run), "missing_shards" and "problems". Every problem is also one line on stderr:
        a shard with no report, a job in two reports, a shard that was stopped before its jobs finished, a failed job.
        Exit codes: 0 every job of the manifest is in exactly one report and rendered or up to date; 1 the campaign is
        not whole (the lines say why; the merged report is written all the same); 75 it is not whole only because of
        jobs that failed on remote inputs for now (each "retryable" in its shard's report: a timeout, a reset, HTTP 5xx
        or 429), so running those shards again is worth it, as one run would exit 75; 64 reports of different manifests,
        slicevid versions or shard counts, a merged report among them, or a report of an older schema; 65 a file that
        is not a slicevid report; 66 a report missing; 73 -o cannot be written.
        html: REPORT is a --report file (a shard's, a whole run's or a merged one, schema \(BatchReport.schema)); the page is one
        self-contained HTML file (style inline, no script, nothing from the network) with a summary, counts that filter,
        and a tile per job: failures first with their error, then new renders with why they rendered (the words of
        batch --plan), then the rest. A tile shows the job's first .jpg, .png or .webp output (a poster or storyboard),
        else the poster batch --report PAGE.html made for it, else a placeholder saying why; nothing is decoded. Pictures
        and outputs are linked relative to the page, so the page's folder can be copied or served as it is.
        Exit codes: 0 the page was written; 64 a report of another schema, or -o naming the report; 65 a file that is
        not a slicevid report; 66 the report missing; 73 -o cannot be written (a folder, device or FIFO whatever
        --force; another file without it).
        """,
        positionals: [.choices(Action.allCases.map(\.rawValue)), .path])

    let action: Action
    let reports: [String]
    let output: String
    let force: Bool
    let quiet: Bool

    init(_ arguments: ParsedArguments) throws(SlicevidError) {
        let words = arguments.positionals
        guard let first = words.first, let action = Action(rawValue: first) else {
            let got = words.first.map { InputText.quoted($0) } ?? "nothing"
            throw SlicevidError(.usage, "report needs an action, \(Action.allCases.map(\.rawValue).joined(separator: ", ")); got \(got); usage: \(Self.spec.usage)")
        }
        self.action = action
        reports = Array(words.dropFirst())
        guard let output = arguments.value(Option.output) else {
            throw SlicevidError(.usage, action == .merge ? "report merge needs -o FILE for the merged report (or -o - for standard output)"
                                                         : "report html needs -o PAGE.html for the page (or -o - for standard output)")
        }
        self.output = output
        force = arguments.has(Option.force)
        quiet = arguments.has(Option.quiet)
    }

    func validate() throws(SlicevidError) {
        guard !reports.isEmpty else {
            throw SlicevidError(.usage, action == .merge ? "report merge needs the shards' reports: slicevid report merge shard-*.json -o campaign.json"
                                                         : "report html needs a report: slicevid report html report.json -o index.html")
        }
        if action == .html, reports.count > 1 {
            throw SlicevidError(.usage, "report html makes the page of one report; got \(reports.count) (merge the shards' reports first: slicevid report merge shard-*.json -o campaign.json)")
        }
    }

    func run() -> ExitCode {
        // A stop signal ends the command at once, but never halfway through writing -o: the
        // handler waits for a write under way, so the file is whole or absent, with no temporary.
        SignalTrap.exitOnSignal { [action] signal in
            Slicevid.exclusively {}
            return "slicevid: report \(action.rawValue) interrupted by \(signalName(signal))\n"
        }
        do throws(SlicevidError) {
            return action == .merge ? try merge() : try page()
        } catch {
            Console.shared.error("slicevid: error: \(error.message(FlagWording()))\n")
            return ExitCode(error.category)
        }
    }

    /// `report merge`.
    private func merge() throws(SlicevidError) -> ExitCode {
        let console = Console.shared
        // The merged report must not take the place of a report it is made from; the library
        // checks that, and what -o may replace, before it reads the reports.
        let merge = try Slicevid.mergeReports(reports, writingTo: output == "-" ? nil : output, force: force)
        if output == "-" {
            let bytes = merge.json
            // Line by line: the layout's newlines stay; a string's DEL, C1 or U+2028 is escaped.
            let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            console.verbatim(lines.map { JSONText.escapingInvisibles(String($0)) }.joined(separator: "\n") + "\n")
            // The merged report never arrived, whatever it says of the campaign: the exit
            // says that alone (ProcessHost.exit: 74 and one line, or a quiet 141 for a
            // reader that went away), with no summary claiming it was written.
            if console.outputError != nil { return .success }
        }
        for problem in merge.problems { console.error("slicevid: report merge: \(problem)\n") }
        if !quiet || !merge.isComplete { console.error("slicevid: report merge: \(Self.summary(merge, output: output))\n") }
        // As one run would: 75 when only failures worth a retry keep the campaign from being whole.
        return merge.isComplete ? .success : merge.isWorthRetry ? .busy : .someJobsFailed
    }

    /// `report html`: the page of one report, written atomically (or to standard output).
    private func page() throws(SlicevidError) -> ExitCode {
        // The page must not take the place of the report; the library checks that, and what -o
        // may replace, before it reads the report.
        let made = try Slicevid.reportPage(of: reports[0], writingTo: output == "-" ? nil : output, force: force)
        if output == "-" {
            Console.shared.verbatim(made.text)
            // A page that never arrived: the exit says so (74, or a quiet 141), no summary.
            if Console.shared.outputError != nil { return .success }
        }
        if !quiet { Console.shared.error("slicevid: report html: \(Self.summary(made, output: output))\n") }
        return .success
    }

    /// `36 jobs: 2 failed, 30 rendered, 4 up to date; 34 pictures, 2 placeholders; wrote index.html`.
    private static func summary(_ page: ReportPage, output: String) -> String {
        let counts = page.counts
        let tally = ReportPage.Group.allCases.compactMap { group in counts[group].map { "\($0) \(group.word)" } }
        let pictures = page.tiles.filter { if case .image = $0.picture { true } else { false } }.count
        let written = output == "-" ? "written to stdout" : "wrote \(InputText.escaped(output))"
        return "\(page.tiles.count) job\(page.tiles.count == 1 ? "" : "s")\(tally.isEmpty ? "" : ": " + tally.joined(separator: ", ")); "
            + "\(pictures) picture\(pictures == 1 ? "" : "s"), \(page.tiles.count - pictures) placeholder\(page.tiles.count - pictures == 1 ? "" : "s"); \(written)"
    }

    /// `4 reports of /srv/campaign.json (shards 0–3 of 4), 24 jobs: 20 rendered, 4 skipped; whole; wrote campaign.json`.
    private static func summary(_ merge: ReportMerge, output: String) -> String {
        let first = merge.reports[0]
        let counts = merge.counts.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        let state = merge.isComplete ? "whole"
            : "not whole (\(merge.problems.count) problem\(merge.problems.count == 1 ? "" : "s")\(merge.isWorthRetry ? ", each worth a retry later" : ""))"
        let written = output == "-" ? "written to stdout" : "wrote \(InputText.escaped(output))"
        return "\(merge.reports.count) report\(merge.reports.count == 1 ? "" : "s") of \(InputText.escaped(first.manifest)) "
            + "(\(first.shard.count - merge.missingShards.count) of \(first.shard.count) shards), \(first.digest.jobs) jobs: "
            + "\(counts.isEmpty ? "none reported" : counts); \(state); \(written)"
    }
}
