// `slicevid batch --plan`: one line per job saying what a run would do with it and why, then a
// count; with --log-format json one object per job and one for the count.

import Foundation
import Slicevid

/// Prints a batch plan.
enum BatchPlanView {
    /// Prints `plans` and returns the exit code: 0 when every job is up to date or will render,
    /// 1 when some are refused or will fail, 2 when all are.
    /// Orphans (outputs of jobs the manifest no longer has) are listed after the jobs, then
    /// whether a prune of them would stop at `brake`; they do not change the exit code.
    static func print(_ plans: [JobPlan], orphans: [Orphan] = [], brake: PruneBrake? = nil, pruning: Bool = false, manifest: String,
                      log: LogWriter) -> ExitCode {
        let blocked = plans.filter { plan in
            if case .refused = plan.state { return true }
            if case .willFail = plan.state { return true }
            return false
        }.count
        func count(_ name: String) -> Int { plans.filter { $0.state.name == name }.count }
        if log.format == .json {
            for plan in plans {
                var fields: [String: Any] = ["event": "job-plan", "manifest": manifest, "job": plan.id, "state": plan.state.name]
                switch plan.state {
                case .upToDate: break
                case .willRender(let reasons):
                    fields["reasons"] = reasons.map(BatchLog.json)
                    fields["folders"] = plan.folders
                    if !plan.warnings.isEmpty { fields["warnings"] = plan.warnings.map(\.text) }
                    if !plan.motion.isEmpty { fields["motion"] = plan.motion }
                case .refused(let why), .willFail(let why): fields["error"] = why
                }
                log.emit(fields)
            }
            for orphan in orphans {
                log.emit(["event": "orphan", "manifest": manifest, "path": orphan.path, "job": orphan.job, "bytes": orphan.bytes,
                          "pruned": false, "kept": orphan.kept ?? NSNull()])
            }
            if let brake, brake.deleting > 0 {
                log.emit(["event": "prune-brake", "manifest": manifest, "deleting": brake.deleting, "outputs": brake.outputs,
                          "limit": brake.limit.description, "held": brake.holds])
            }
            log.emit(["event": "plan-finished", "manifest": manifest, "jobs": plans.count, "up-to-date": count("up-to-date"),
                      "will-render": count("will-render"), "refused": count("refused"), "will-fail": count("will-fail"),
                      "orphans": orphans.count])
        } else {
            // A layout's mistake is the same for every job of its layout and aspect: said once.
            let lines = JobLines.grouped(plans.map { plan in
                switch plan.state {
                case .upToDate: (plan.id, "up to date")
                case .willRender(let reasons):
                    (plan.id, "will render: \(RenderReason.sentence(reasons))\(plan.folders.isEmpty ? "" : " (creating \(plan.folders.joined(separator: ", ")))")")
                case .refused(let why): (plan.id, "refused: \(why)")
                case .willFail(let why): (plan.id, why.hasPrefix("layout ") ? why : "will fail: \(why)")
                }
            })
            for line in lines {
                let text = line.text.hasPrefix("layout ") ? "will fail: \(line.text)" : line.text
                log.console.error("slicevid: \(manifest): \(line.subject): \(text)\n")
            }
            // Each moving layer's times, once for every job whose clip gives the same.
            for line in JobLines.grouped(plans.flatMap { plan in plan.motion.map { (plan.id, "layout " + $0) } }) {
                log.console.error("slicevid: \(manifest): \(line.subject): \(line.text.dropFirst("layout ".count))\n")
            }
            for plan in plans {
                for warning in plan.warnings { log.console.error("slicevid: \(manifest): job \(InputText.quoted(plan.id)): warning: \(warning.text)\n") }
            }
            for orphan in orphans { log.console.error("slicevid: \(manifest): \(describe(orphan, pruning: pruning))\n") }
            if let line = brake.flatMap({ describe($0, pruning: pruning) }) { log.console.error("slicevid: \(manifest): \(line)\n") }
            var parts = [("up to date", count("up-to-date")), ("to render", count("will-render")), ("refused", count("refused")),
                         ("will fail", count("will-fail"))].filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }
            if !orphans.isEmpty { parts.append("\(orphans.count) orphaned output\(orphans.count == 1 ? "" : "s")") }
            log.console.error("slicevid: \(manifest): \(plans.count) job\(plans.count == 1 ? "" : "s"): \(parts.isEmpty ? "none in this shard" : parts.joined(separator: ", "))\n")
        }
        if blocked == 0 { return .success }
        return blocked == plans.count ? .allJobsFailed : .someJobsFailed
    }

    /// Whether a prune would stop at its brake, as `--plan` and `--check` say it; nil when it
    /// would delete nothing.
    static func describe(_ brake: PruneBrake, pruning: Bool) -> String? {
        guard brake.deleting > 0 else { return nil }
        let prune = pruning ? "this run would prune" : "--prune would delete"
        if brake.holds {
            return "the prune brake would hold: \(prune) \(brake.counts), more than --prune-max \(brake.limit); it would delete nothing and exit \(ExitCode.pruneRefused.rawValue)"
        }
        return "\(prune) \(brake.counts), within --prune-max \(brake.limit)"
    }

    /// An orphan as `--plan` and `--check` say it: what `--prune` would do with it, and why.
    static func describe(_ orphan: Orphan, pruning: Bool) -> String {
        let what = "\(InputText.escaped(orphan.path)) (written for job \(InputText.quoted(orphan.job)), \(orphan.jobRemains ? "which no longer makes it" : "no longer in the manifest"))"
        if let kept = orphan.kept { return "orphan \(what): --prune would keep it: \(InputText.escaped(kept))" }
        return pruning ? "would prune \(what) and its sidecar" : "orphan \(what): --prune would delete it and its sidecar"
    }
}
