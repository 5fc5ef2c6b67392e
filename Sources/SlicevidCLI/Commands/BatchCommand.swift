// `slicevid batch campaign.json`: every job of a manifest, safe to run from cron (locked,
// idempotent, interruptible) and to spread over machines (`--shard`).

import Foundation
@_spi(ProcessHost) import Slicevid

/// Renders, or with `--check` validates, the jobs of a manifest.
struct BatchCommand: ParsableCommand {
    /// The options `batch` takes, declared once: parsing, help and the lookups all use these.
    enum Option {
        static let check = OptionSpec("check", help: "Check the manifest, its presets, stills (exist and decode) and outputs (folders, files a run may not replace); say what a run would create, replace or delete; render nothing.")
        static let plan = OptionSpec("plan", help: "Say what a run would do with each job and why: up to date, will render (new or missing output, which still or setting changed from what to what, another slicevid version), refused (a file slicevid did not write is at an output) or will fail. Takes no lock, writes nothing.")
        static let report = OptionSpec("report", value: "FILE", kind: .path, help: "Write a JSON report of every job (written atomically, also after SIGINT/SIGTERM). A FILE ending .html (or .htm) is the report's page instead, one self-contained file with a tile per job: the JSON report goes beside it (index.json for index.html), and a small poster of each job that writes no .jpg, .png or .webp of its own into a folder beside it (index.files).")
        static let history = OptionSpec("history", value: "N", help: "With --report PAGE.html: keep the page and JSON report of the last N runs, this one included, in a folder beside the page (index.history/2026-12-04T02-00-13Z.html for index.html, UTC) and list them on the page (default \(BatchRequest.defaultReportHistory); 0 keeps none). Older runs are deleted only where they are pages and reports slicevid wrote.")
        static let notify = OptionSpec("notify", value: "URL", help: "When the run ends, POST its JSON report to URL (http or https), retried with doubling waits on a network error, a 5xx or a 429; a failure is one line on stderr and never changes the exit status. With a secret (--notify-secret FILE, else $\(BatchOptions.secretVariable)) the body is signed: header \(RunNotification.signatureHeader): sha256=HEX, the HMAC-SHA256 of the exact body.")
        static let notifyFormat = OptionSpec("notify-format", value: "json|slack", help: "What --notify POSTs: json, the run's report (default); slack, {\"text\": \"campaign.json: 2 failed, 34 rendered (some-failed)\"} as Slack's and Mattermost's incoming webhooks take it.")
        static let notifySecret = OptionSpec("notify-secret", value: "FILE", kind: .path, help: "Read the key that signs --notify's body from FILE (its bytes, a trailing newline dropped; at most 4 KiB). Never give the key itself on the command line.")
        static let shard = OptionSpec("shard", value: "K/N", help: "Render only shard K of N (0-based): jobs whose id's hash (the first 8 bytes of its SHA-256) falls in the K-th of N equal slices of the hash range. auto/N takes K from \(Shard.indexVariables.joined(separator: " or ")).")
        static let parallel = OptionSpec("parallel", value: "N", help: "Render up to N jobs at once, \(BatchRequest.parallelRange.lowerBound)–\(BatchRequest.parallelRange.upperBound) (default: the cores divided by the cores the largest frame wants, one per 1280x720, and no more jobs than keep three 1920x1080 frames in their encoders; 1 renders one job after another). Each output's encoder threads come from the cores and its frame, not N, so output files are the same for any N.")
        static let force = OptionSpec("force", short: "f", help: "Re-render every job, even when its outputs' fingerprints match, and replace files at output paths that slicevid's sidecars do not record.")
        static let jobs = OptionSpec("jobs", short: "j", value: "N", help: "Render threads per job, \(MakeRequest.renderThreadsRange.lowerBound)–\(MakeRequest.renderThreadsRange.upperBound) (default: the cores divided by --parallel). Output is identical for any value.")
        static let quiet = OptionSpec("quiet", short: "q", help: "Print only failures and the summary, in every log format.")
        static let prune = OptionSpec("prune", help: "After the jobs, delete the outputs (and their sidecars) that this manifest wrote for jobs it no longer has (a row left the feed, a job or output left the manifest), in the folders it writes to, while they are unchanged since. Without it they are reported as orphans.")
        static let pruneMax = OptionSpec("prune-max", value: "N%|N", help: "The most one --prune may delete: a share of the campaign's outputs (those its jobs write and the orphans), or a number of them (default \(PruneLimit.standard)). A run that would delete more deletes nothing, says so in one line with the counts and exits \(ExitCode.pruneRefused.rawValue): a feed cut short must not take the campaign with it.")
        static let only = OptionSpec("only", value: "KEY|GLOB", repeatable: true, help: "Render only the jobs whose feed key is KEY, or whose id matches GLOB (NL-10*); repeat or separate with commas.")
    }

    static let spec = CommandSpec(
        name: "batch",
        abstract: "Render every job of a JSON manifest; a re-run skips jobs whose outputs are up to date.",
        usage: "slicevid batch MANIFEST|- [--check|--plan] [--report FILE [--history N]] [--notify URL] [--shard K/N] [--only KEY] [--prune [--prune-max N%|N]] [--parallel N] [--force] [options]",
        options: [Option.check, Option.plan, Option.report, Option.history, Option.notify, Option.notifyFormat, Option.notifySecret, Option.shard, Option.only, Option.prune, Option.pruneMax, Option.parallel, Option.force,
                  LogFormat.option, Option.jobs, Option.quiet, SharedOptions.verbose] + SharedOptions.remote,
        discussion: """
        MANIFEST is strict JSON (RFC 8259): {"defaults": {...}, "jobs": [{"id": "...", "images": [...], "outputs": [...]}, ...]}.
        defaults and jobs take "preset" and any preset field (\(SpecField.allCases.map(\.rawValue).joined(separator: ", ")))
        plus the encoding settings (\(OutputOption.allCases.map(\.rawValue).joined(separator: ", "))); a job's image may be
        {"path": ..., "hold": seconds}; "audio" is the music bed: a path, "none", or {"file", "stream", "start", "loop",
        "fade-in", "fade-out", "loudness", "volume"} (a preset's audio settings apply under it); "transitions" gives each pair its own \(Manifest.transitionFields.map(\.rawValue).joined(separator: ", ")).
        A job with "matrix": {"NAME": [values...], ...} stands for one job per combination: {NAME} is filled in every
        string of it, {id} with its id (write {{ and }} for literal braces); every name must appear in the id.
        A job with "rows": {"file": "products.csv", "key": "sku"} (a CSV or JSON Lines feed, - for stdin) stands for
        one job per row (times its matrix): every column is a {placeholder}, and the id must use the key's.
        Relative paths are relative to the manifest's folder (to the working folder for - , the manifest on stdin).
        Missing output folders are created. The format: docs/batch.md, or man slicevid.
        Each output gets a hidden sidecar (.NAME.slicevid.json) with the fingerprint of its inputs' bytes, its
        settings and the slicevid version; jobs whose outputs all match are skipped without decoding.
        A file already at an output path is replaced (or a sequence's old frames deleted) only when its sidecar
        records that slicevid wrote it and it is unchanged since; anything else fails that job (73) unless --force.
        A run locks the manifest (.MANIFEST.lock beside it; .stdin.lock in the working folder for -); an
        overlapping run exits 75 at once.
        \(ExitCode.helpLine([.success, .someJobsFailed, .allJobsFailed, .pruneRefused, .usage, .inputMissing, .outputBlocked, .busy,
                             .interrupted, .terminated]))
        64 is also a bad manifest (before anything renders), 66 a missing manifest, 73 a report or lock file that
        cannot be written. Interrupted, finished jobs are kept and the report is written, after a second signal too.
        --check and --plan: 0 every job is ready, 1 some are not, 2 none is.
        """,
        positionals: [.path])

    /// The flags, read and checked.
    let options: BatchOptions

    init(_ arguments: ParsedArguments) throws(SlicevidError) {
        options = try BatchOptions(arguments)
    }

    /// Runs the command through the library, as any client would.
    func run() -> ExitCode {
        let console = Console.shared
        Slicevid.routeFFmpegLog(verbose: options.verbose)
        let log = LogWriter(console: console, format: options.logFormat, quiet: options.quiet)
        do {
            // Set before anything is read: a signal while a manifest or feed comes on stdin ends
            // the read with its line, and a run that follows is stopped by the same trap.
            let cancellation = ProcessHost.cancellation()
            let presets = Slicevid.presetCatalog()
            let manifest = options.manifest == "-"
                ? try Slicevid.manifestFromStandardInput(presets: presets, cancellation: cancellation, remote: options.remote)
                : try Slicevid.manifest(at: options.manifest, presets: presets, cancellation: cancellation, remote: options.remote)
            var request = try BatchRequest(manifest: manifest, shard: options.shard, force: options.force, renderThreads: options.jobs,
                                           parallel: options.parallel, reportFile: options.reportFile, reportPage: options.reportPage, prune: options.prune,
                                           pruneLimit: options.pruneLimit, only: options.only, version: SlicevidTool.version, threads: options.threads)
            request.verbose = options.verbose
            request.reportHistory = options.history
            request.remote = options.remote
            request.runWording = FlagWording()
            if options.check || options.plan {
                let view = options.check ? "--check" : "--plan"
                let line: @Sendable (Int32) -> String = { signal in "slicevid: \(manifest.path): \(view) interrupted by \(signalName(signal)); nothing was written\n" }
                SignalTrap.exitOnSignal(saying: line)
                // A signal that came while the manifest was read (the trap above was the
                // reading's) ends the view now, as one during it would.
                if let signal = cancellation.signal {
                    console.error(line(signal))
                    return ExitCode(signal: signal)
                }
            }
            if options.check { return Self.check(request, console: console) }
            if options.plan {
                let orphans = Slicevid.orphans(request)
                return BatchPlanView.print(Slicevid.plan(request), orphans: orphans, brake: Slicevid.pruneBrake(request, orphans: orphans),
                                           pruning: request.prune, manifest: manifest.path, log: log)
            }

            let batchLog = BatchLog(log, manifest: manifest.path, shard: options.shard, verbose: options.verbose)
            let report = try Slicevid.batch(request, cancellation: cancellation) { event in batchLog.handle(event) }
            if let notification = options.notification { Self.notify(report, via: notification, log: log) }
            if report.reportFileError != nil, report.signal == nil { return .outputBlocked }
            return ExitCode(report.outcome)
        } catch {
            log.error(error)
            return ExitCode(error.category)
        }
    }

    /// `--notify`: the webhook told, its failure said in one line; the exit status stays the run's.
    private static func notify(_ report: BatchReport, via notification: RunNotification, log: LogWriter) {
        let problem = Slicevid.notify(report, via: notification)
        if log.format == .json {
            log.emit(["event": "notify", "url": notification.shownURL, "error": problem ?? NSNull()])
        } else if let problem {
            log.line("notify: \(problem); the exit status is the run's")
        } else if !log.quiet {
            log.line("notified \(notification.shownURL)")
        }
    }

    /// `--check`: one line per job with problems, then what a run would change, then a count;
    /// renders and writes nothing.
    private static func check(_ request: BatchRequest, console: Console) -> ExitCode {
        let checks = Slicevid.check(request)
        let manifest = request.manifest.path
        // A layout's mistake is the same for every job of its layout and aspect: said once.
        for line in JobLines.grouped(checks.flatMap { job in job.problems.map { (job.id, $0) } }) {
            console.error("slicevid: \(manifest): \(line.subject): \(line.text)\n")
        }
        // A folder several jobs write to is said once.
        var folders: Set<String> = []
        for job in checks {
            for folder in job.folders where folders.insert(folder).inserted { console.error("slicevid: \(manifest): would create folder \(folder)\n") }
        }
        for job in checks {
            for warning in job.warnings { console.error("slicevid: \(manifest): job \(InputText.quoted(job.id)): warning: \(warning.text)\n") }
        }
        for job in checks {
            for change in job.changes { console.error("slicevid: \(manifest): job \(InputText.quoted(job.id)): \(change)\n") }
        }
        let orphans = Slicevid.orphans(request)
        for orphan in orphans {
            console.error("slicevid: \(manifest): \(BatchPlanView.describe(orphan, pruning: request.prune))\n")
        }
        if let line = BatchPlanView.describe(Slicevid.pruneBrake(request, orphans: orphans), pruning: request.prune) {
            console.error("slicevid: \(manifest): \(line)\n")
        }
        let failing = checks.filter { !$0.problems.isEmpty }.count
        let upToDate = checks.filter(\.isUpToDate).count
        let state = failing == 0 ? "all ready (\(upToDate) up to date, \(checks.count - upToDate) would render)" : "\(failing) with problems"
        console.error("slicevid: \(manifest): \(checks.count) job\(checks.count == 1 ? "" : "s") checked, \(state)\n")
        if failing == 0 { return .success }
        return failing == checks.count ? .allJobsFailed : .someJobsFailed
    }
}

/// The parsed and checked flags of `batch`.
struct BatchOptions {
    /// The manifest path, or `-` for standard input.
    var manifest: String
    var check: Bool
    var plan: Bool
    var report: String?
    var shard: Shard
    /// The report page, when `--report` names an .html file.
    var reportPage: String? { report.flatMap { ReportPage.isPage($0) ? $0 : nil } }
    /// The JSON report: `--report` itself, or the .json beside a page.
    var reportFile: String? { report.map { ReportPage.isPage($0) ? ReportPage.sibling(of: $0, extension: "json") : $0 } }
    var force: Bool
    var logFormat: LogFormat
    /// Render threads per job; nil shares the cores among the jobs at once.
    var jobs: Int?
    /// Jobs at once; nil chooses from the cores and the frame size.
    var parallel: Int?
    /// The cores shared out (`$SLICEVID_CORES`, else the machine's).
    var threads: ThreadBudget
    var quiet: Bool
    /// `--verbose`: FFmpeg's own warnings too.
    var verbose: Bool
    /// `--prune`: delete outputs of jobs the manifest no longer has.
    var prune: Bool
    /// `--prune-max`: the most one prune may delete.
    var pruneLimit: PruneLimit
    /// `--only`: keys and id globs, commas split.
    var only: [String]
    /// `--history`: runs the report page keeps.
    var history: Int
    /// `--notify`: the webhook told when the run ends, with its format and key.
    var notification: RunNotification?
    /// Where the key that signs `--notify`'s body is read from when no file is given.
    static let secretVariable = "SLICEVID_NOTIFY_SECRET"
    /// `--cache`, `--offline`, `--revalidate`, `--ca-file`.
    var remote: RemoteOptions

    /// - Throws: `SlicevidError(.usage)` naming the flag and what is accepted.
    init(_ arguments: ParsedArguments) throws(SlicevidError) {
        guard arguments.positionals.count == 1 else {
            throw SlicevidError(.usage, arguments.positionals.isEmpty ? "batch needs a manifest: slicevid batch campaign.json (or - to read it from stdin)"
                                                                       : "batch takes one manifest; got \(InputText.quoted(arguments.positionals.joined(separator: " ")))")
        }
        manifest = arguments.positionals[0]
        check = arguments.has(BatchCommand.Option.check)
        plan = arguments.has(BatchCommand.Option.plan)
        report = arguments.value(BatchCommand.Option.report)
        if check && plan { throw SlicevidError(.usage, "--plan: --check and --plan are two views of a run; give one") }
        if check || plan, report != nil { throw SlicevidError(.usage, "--report: --\(check ? "check" : "plan") writes no report; drop one of them") }
        shard = try arguments.value(BatchCommand.Option.shard).map { text throws(SlicevidError) in
            try Shard(parsing: text, environment: ProcessInfo.processInfo.environment)
        } ?? .all
        force = arguments.has(BatchCommand.Option.force)
        logFormat = try LogFormat.parse(arguments)
        jobs = try arguments.value(BatchCommand.Option.jobs).map { text throws(SlicevidError) in try SharedOptions.renderThreads(text) }
        parallel = try arguments.value(BatchCommand.Option.parallel).map { text throws(SlicevidError) in
            guard let value = Int(text), BatchRequest.parallelRange.contains(value) else {
                throw SlicevidError(.usage, "--parallel: \(InputText.quoted(text)) is not a whole number \(BatchRequest.parallelRange.lowerBound)–\(BatchRequest.parallelRange.upperBound)")
            }
            return value
        }
        let range = BatchRequest.reportHistoryRange
        history = try arguments.value(BatchCommand.Option.history).map { text throws(SlicevidError) in
            guard let value = Int(text), range.contains(value) else {
                throw SlicevidError(.usage, "--history: \(InputText.quoted(text)) is not a whole number \(range.lowerBound)–\(range.upperBound) (runs the report page keeps)")
            }
            return value
        } ?? BatchRequest.defaultReportHistory
        if arguments.value(BatchCommand.Option.history) != nil, !(report.map(ReportPage.isPage) ?? false) {
            throw SlicevidError(.usage, "--history: keeps the runs of a report page; give --report PAGE.html too")
        }
        notification = try Self.notification(arguments, views: check || plan)
        threads = try SharedOptions.threads()
        quiet = arguments.has(BatchCommand.Option.quiet)
        verbose = arguments.has(SharedOptions.verbose)
        prune = arguments.has(BatchCommand.Option.prune)
        pruneLimit = try arguments.value(BatchCommand.Option.pruneMax).map { text throws(SlicevidError) in try PruneLimit(parsing: text) } ?? .standard
        // --check and --plan say what a prune under this limit would do; a run deletes only with --prune.
        if !prune, !check, !plan, arguments.has(BatchCommand.Option.pruneMax) {
            throw SlicevidError(.usage, "--prune-max limits --prune; give --prune too, or drop it")
        }
        remote = try SharedOptions.remote(from: arguments)
        only = arguments.all(BatchCommand.Option.only).flatMap { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        if let empty = only.firstIndex(where: \.isEmpty) {
            throw SlicevidError(.usage, "--only: value \(empty + 1) is empty; give feed keys or id globs, separated by commas")
        }

    }
}

extension BatchOptions {
    /// `--notify`, `--notify-format` and `--notify-secret` (else `$SLICEVID_NOTIFY_SECRET`), read
    /// and checked before anything renders.
    /// - Throws: `SlicevidError`: `.usage` for a URL or format not accepted, or either option
    ///   without `--notify`; `.inputMissing`, `.inputInvalid` for a key file that cannot be read.
    static func notification(_ arguments: ParsedArguments, views: Bool) throws(SlicevidError) -> RunNotification? {
        let format = try arguments.value(BatchCommand.Option.notifyFormat).map { text throws(SlicevidError) in
            guard let format = RunNotification.Format(rawValue: text) else {
                throw SlicevidError(.usage, "--notify-format: \(InputText.quoted(text)) is not one of \(RunNotification.Format.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return format
        }
        let file = arguments.value(BatchCommand.Option.notifySecret)
        guard let url = arguments.value(BatchCommand.Option.notify) else {
            if format != nil || file != nil { throw SlicevidError(.usage, "--notify-\(format != nil ? "format" : "secret"): says how to notify; give --notify URL too") }
            return nil
        }
        if views { throw SlicevidError(.usage, "--notify: --check and --plan render nothing and notify no one; drop one of them") }
        let secret = try file.map { path throws(SlicevidError) in try RunNotification.secret(fromFile: path) }
            ?? ProcessInfo.processInfo.environment[secretVariable].map { Array($0.utf8) }
        return try RunNotification(url: url, format: format ?? .json, secret: secret)
    }
}

extension ExitCode {
    /// The exit status of a finished batch run.
    init(_ outcome: BatchReport.Outcome) {
        switch outcome {
        case .success: self = .success
        case .someFailed: self = .someJobsFailed
        case .allFailed: self = .allJobsFailed
        case .pruneRefused: self = .pruneRefused
        // Failed only on remote inputs for now: the scheduler's retry is what it needs.
        case .retryLater: self = .busy
        case .interrupted(let signal): self.init(signal: signal)
        // The command line stops only on signals; were a run cancelled otherwise, it is SIGINT's.
        case .cancelled: self = .interrupted
        }
    }
}
