// `slicevid batch campaign.json`: every job of a manifest, safe to run from cron (locked,
// idempotent, interruptible) and to spread over machines (`--shard`).

import Foundation
import SliceKit
import SliceMedia
import SlicePipeline

/// Renders, or with `--check` validates, the jobs of a manifest.
struct BatchCommand: ParsableCommand {
    static let spec = CommandSpec(
        name: "batch",
        abstract: "Render every job of a JSON manifest; a re-run skips jobs whose outputs are up to date.",
        usage: "slicevid batch MANIFEST|- [--check|--plan] [--report FILE] [--shard K/N] [--parallel N] [--force] [options]",
        options: [
            OptionSpec("check", help: "Check the manifest, its presets, stills (exist and decode) and outputs (folders, files a run may not replace); say what a run would create, replace or delete; render nothing."),
            OptionSpec("plan", help: "Say what a run would do with each job and why: up to date, will render (new or missing output, which still or setting changed from what to what, another slicevid version), refused (a file slicevid did not write is at an output) or will fail. Takes no lock, writes nothing."),
            OptionSpec("report", value: "FILE", kind: .path, help: "Write a JSON report of every job (written atomically, also after SIGINT/SIGTERM)."),
            OptionSpec("shard", value: "K/N", help: "Render only shard K of N (0-based): jobs whose id's hash (the first 8 bytes of its SHA-256) falls in the K-th of N equal slices of the hash range. auto/N takes K from the scheduler (\(Shard.indexVariables.joined(separator: ", "))); auto takes N from it too (\(Shard.schedulers.compactMap(\.count).joined(separator: ", ")))."),
            OptionSpec("parallel", value: "N", help: "Render up to N jobs at once, \(BatchRequest.parallelRange.lowerBound)–\(BatchRequest.parallelRange.upperBound) (default: the cores divided by the cores the largest frame wants, one per 1280x720; 1 renders one job after another). Output files are the same for any N."),
            OptionSpec("force", short: "f", help: "Re-render every job, even when its outputs' fingerprints match, and replace files at output paths that slicevid's sidecars do not record."),
            LogFormat.option,
            OptionSpec("jobs", short: "j", value: "N", help: "Render threads per job, \(MakeRequest.jobsRange.lowerBound)–\(MakeRequest.jobsRange.upperBound) (default: the cores divided by --parallel). Output is identical for any value."),
            OptionSpec("quiet", short: "q", help: "Print only failures and the summary, in every log format."),
            SharedOptions.verbose,
        ],
        discussion: """
        MANIFEST is strict JSON (RFC 8259): {"defaults": {...}, "jobs": [{"id": "...", "images": [...], "outputs": [...]}, ...]}.
        defaults and jobs take "preset" and any preset field (\(SpecField.allCases.map(\.rawValue).joined(separator: ", ")))
        plus the encoding settings (\(OutputOption.allCases.map(\.rawValue).joined(separator: ", "))); a job's image may be
        {"path": ..., "hold": seconds}; "audio" is the music bed: a path, "none", or {"file", "stream", "start", "loop",
        "fade-in", "fade-out", "loudness", "volume"} (a preset's audio settings apply under it); "transitions" gives each pair its own \(ManifestJob.transitionFields.map(\.rawValue).joined(separator: ", ")).
        A job with "matrix": {"NAME": [values...], ...} stands for one job per combination: {NAME} is filled in every
        string of it, {id} with its id (write {{ and }} for literal braces); every name must appear in the id.
        Relative paths are relative to the manifest's folder (to the working folder for - , the manifest on stdin).
        Missing output folders are created. See the README for the format.
        Each output gets a hidden sidecar (.NAME.slicevid.json) with the fingerprint of its inputs' bytes, its
        settings and the slicevid version; jobs whose outputs all match are skipped without decoding.
        A file already at an output path is replaced (or a sequence's old frames deleted) only when its sidecar
        records that slicevid wrote it and it is unchanged since; anything else fails that job (73) unless --force.
        A run locks the manifest (.MANIFEST.lock beside it; .stdin.lock in the working folder for -); an
        overlapping run exits 75 at once.
        \(ExitCode.helpLine([.success, .someJobsFailed, .allJobsFailed, .usage, .inputMissing, .outputBlocked, .busy,
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

    func run() -> ExitCode {
        let console = Console.shared
        FFmpegLog.configure(verbose: options.verbose)
        let log = LogWriter(console: console, format: options.logFormat, quiet: options.quiet)
        do {
            let resolve: PresetResolver = { value throws(SlicevidError) in try PresetLibrary.load(value) }
            let manifest = options.manifest == "-" ? try Manifest.loadStandardInput(presets: resolve)
                                                   : try Manifest.load(path: options.manifest, presets: resolve)
            let selected = manifest.jobs.filter { options.shard.contains($0.id) }
            let cores = ProcessInfo.processInfo.activeProcessorCount
            let parallel = options.parallel ?? BatchRequest.defaultParallel(for: selected, cores: cores)
            var request = BatchRequest(manifest: manifest, shard: options.shard, force: options.force,
                                       jobs: options.jobs ?? max(1, cores / parallel), parallel: parallel, version: SlicevidTool.version)
            request.verbose = options.verbose
            if options.check || options.plan {
                let view = options.check ? "--check" : "--plan"
                SignalTrap.exitOnSignal { signal in "slicevid: \(manifest.path): \(view) interrupted by \(signalName(signal)); nothing was written" }
            }
            if options.check { return Self.check(request, console: console) }
            if options.plan { return BatchPlanView.print(BatchPlan.run(request), manifest: manifest.path, log: log) }
            if let report = options.report {
                try Self.checkWritable(report)
                try BatchReport.checkReplaceable(report, force: options.force)
            }

            let lock: ManifestLock
            switch try ManifestLock.acquire(manifest: manifest.path, shard: options.shard) {
            case .acquired(let held):
                lock = held
            case .busy(let file, let holder):
                let by = holder.map { "another slicevid batch (pid \($0))" } ?? "another slicevid batch"
                console.error("slicevid: \(manifest.path): \(by) is rendering it (lock \(file)); nothing done, try again later\n")
                return .busy
            case .busyUnderAnotherName:
                console.error("slicevid: \(manifest.path): another slicevid batch is rendering this file under another name (a hard link to it); nothing done, try again later\n")
                return .busy
            }
            defer { withExtendedLifetime(lock) {} }

            let batchLog = BatchLog(log, manifest: manifest.path, shard: options.shard)
            let journal = BatchJournal(request)
            // A second signal ends the process at once, but not before the report: finished
            // jobs as they ended, the ones under way interrupted, the rest pending.
            let cancellation = SignalTrap.install { signal in
                let report = journal.report(signal: signal)
                let written = options.report.flatMap { path in (try? report.write(to: path)).map { path } }
                batchLog.summary(report, reportPath: written)
            }
            let report = BatchRun.run(request, cancellation: cancellation, journal: journal) { event in batchLog.handle(event) }
            var written: String?
            if let path = options.report {
                do throws(SlicevidError) {
                    // Whole even if a second signal comes meanwhile: it waits, then rewrites it.
                    try OutputTarget.exclusively { () throws(SlicevidError) in try report.write(to: path) }
                    written = path
                } catch {
                    log.error(error)
                }
            }
            batchLog.summary(report, reportPath: written)
            if options.report != nil && written == nil, report.signal == nil { return .outputBlocked }
            return ExitCode(report.outcome)
        } catch {
            log.error(error)
            return ExitCode(error.category)
        }
    }

    /// `--check`: one line per job with problems, then what a run would change, then a count;
    /// renders and writes nothing.
    private static func check(_ request: BatchRequest, console: Console) -> ExitCode {
        let checks = BatchCheck.run(request)
        for job in checks {
            for problem in job.problems { console.error("slicevid: \(request.manifest.path): job \(InputText.quoted(job.id)): \(problem)\n") }
        }
        for job in checks {
            for change in job.changes { console.error("slicevid: \(request.manifest.path): job \(InputText.quoted(job.id)): \(change)\n") }
        }
        let failing = checks.filter { !$0.problems.isEmpty }.count
        let upToDate = checks.filter(\.isUpToDate).count
        let state = failing == 0 ? "all ready (\(upToDate) up to date, \(checks.count - upToDate) would render)" : "\(failing) with problems"
        console.error("slicevid: \(request.manifest.path): \(checks.count) job\(checks.count == 1 ? "" : "s") checked, \(state)\n")
        if failing == 0 { return .success }
        return failing == checks.count ? .allJobsFailed : .someJobsFailed
    }

    /// Refuses a `--report` path whose folder is missing or read-only, before anything renders.
    private static func checkWritable(_ report: String) throws(SlicevidError) {
        let folder = URL(fileURLWithPath: report).deletingLastPathComponent().path
        guard access(folder, W_OK) == 0 else {
            throw SlicevidError(.outputBlocked, "--report \(report): folder \(folder) does not exist or is not writable")
        }
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
    var force: Bool
    var logFormat: LogFormat
    /// Render threads per job; nil shares the cores among the jobs at once.
    var jobs: Int?
    /// Jobs at once; nil chooses from the cores and the frame size.
    var parallel: Int?
    var quiet: Bool
    /// `--verbose`: FFmpeg's own warnings too.
    var verbose: Bool

    /// - Throws: `SlicevidError(.usage)` naming the flag and what is accepted.
    init(_ arguments: ParsedArguments) throws(SlicevidError) {
        guard arguments.positionals.count == 1 else {
            throw SlicevidError(.usage, arguments.positionals.isEmpty ? "batch needs a manifest: slicevid batch campaign.json (or - to read it from stdin)"
                                                                       : "batch takes one manifest; got \(InputText.quoted(arguments.positionals.joined(separator: " ")))")
        }
        manifest = arguments.positionals[0]
        check = arguments.has("check")
        plan = arguments.has("plan")
        report = arguments.value("report")
        if check && plan { throw SlicevidError(.usage, "--plan: --check and --plan are two views of a run; give one") }
        if check || plan, report != nil { throw SlicevidError(.usage, "--report: --\(check ? "check" : "plan") writes no report; drop one of them") }
        shard = try arguments.value("shard").map { text throws(SlicevidError) in
            try Shard(parsing: text, environment: ProcessInfo.processInfo.environment)
        } ?? .all
        force = arguments.has("force")
        logFormat = try LogFormat.parse(arguments)
        jobs = arguments.has("jobs") ? try SharedOptions.jobs(from: arguments) : nil
        parallel = try arguments.value("parallel").map { text throws(SlicevidError) in
            guard let value = Int(text), BatchRequest.parallelRange.contains(value) else {
                throw SlicevidError(.usage, "--parallel: \(InputText.quoted(text)) is not a whole number \(BatchRequest.parallelRange.lowerBound)–\(BatchRequest.parallelRange.upperBound)")
            }
            return value
        }
        quiet = arguments.has("quiet")
        verbose = arguments.has("verbose")
    }
}

extension ExitCode {
    /// The exit status of a finished batch run.
    init(_ outcome: BatchReport.Outcome) {
        switch outcome {
        case .success: self = .success
        case .someFailed: self = .someJobsFailed
        case .allFailed: self = .allJobsFailed
        case .interrupted(let signal): self.init(signal: signal)
        }
    }
}
