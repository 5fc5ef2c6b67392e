// Outputs a manifest no longer makes: a sidecar in a folder the manifest writes to says this
// manifest wrote the file for a job, and no job of the manifest writes that path any more (the
// job, its feed row, or that output left it; or, for a report page's poster, the job now writes
// a picture of its own). `batch --prune` deletes them — only while every
// file still matches the stamps its sidecar recorded, the rule replacement already follows — and
// every run, `--plan` and `--check` say they are there.

import Foundation
import Glibc
import SliceCampaign
import SliceKit
import SliceMedia
import SlicePipeline
import SliceReports

extension Orphan {
    /// The most folders looked into below one root: a bound for a root that holds a big tree.
    static let maximumFolders = 10_000
    /// How deep below a root folders are looked into.
    static let maximumDepth = 8

    /// The orphans of `manifest`: outputs in the folders its jobs write to (and below the part
    /// of each output template no placeholder fills) whose sidecars name this manifest and a path
    /// no job of it writes any more. Sidecars of other manifests, of slicevid 0.3 and earlier
    /// (which name none) and of `make` are never looked at twice.
    /// - Returns: the orphans, by path.
    /// - Parameter posterFolder: the folder of the run's report page's posters (`index.files`),
    ///   when it writes one: a poster there of a job the manifest no longer has, or of one that
    ///   now writes a picture of its own, is an orphan too.
    package static func find(in manifest: Manifest, posterFolder: String? = nil) -> [Orphan] {
        let current = currentOutputs(of: manifest, posterFolder: posterFolder)
        var folders = Set(manifest.jobs.flatMap { $0.outputPaths.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path } })
        if let posterFolder { folders.insert(posterFolder) }
        var looked = 0
        for root in manifest.outputRoots { collect(root, depth: 0, into: &folders, looked: &looked) }
        let jobs = Set(manifest.jobs.map(\.id))
        var orphans: [Orphan] = []
        for folder in folders.sorted() {
            for name in sidecarNames(in: folder) {
                let output = (folder == "/" ? "" : folder) + "/" + name
                guard !current.contains(output), let format = OutputFormat(path: output) else { continue }
                var orphan: Orphan
                switch OutputRecord.reading(for: output) {
                case .none:
                    continue
                case .refused(let why, let named, let job):
                    // It says it is this manifest's, but says so without authority: listed, never deleted.
                    guard named == manifest.reportName, let job else { continue }
                    orphan = Orphan(path: output, job: job, bytes: 0, kept: "its sidecar licenses nothing: \(why)")
                case .record(let record):
                    guard record.manifest == manifest.reportName, let job = record.job else { continue }
                    orphan = judge(output, record: record, format: format, job: job)
                }
                orphan.jobRemains = jobs.contains(orphan.job)
                orphans.append(orphan)
            }
        }
        return orphans
    }

    /// The outputs `manifest`'s jobs write now (and the page's posters of the jobs that write no
    /// picture of their own, when the run writes a page).
    private static func currentOutputs(of manifest: Manifest, posterFolder: String?) -> Set<String> {
        var current = Set(manifest.jobs.flatMap(\.outputPaths))
        if let posterFolder {
            for job in manifest.jobs where !job.writesPicture { current.insert(posterFolder + "/" + ReportPage.posterName(for: job.id)) }
        }
        return current
    }

    /// The brake on pruning `orphans`: those a prune would delete (their sidecars license it)
    /// against the campaign's outputs, the ones its jobs write now and the orphans.
    package static func brake(_ orphans: [Orphan], in manifest: Manifest, posterFolder: String? = nil, limit: PruneLimit) -> PruneBrake {
        let current = currentOutputs(of: manifest, posterFolder: posterFolder)
        return PruneBrake(deleting: orphans.filter { $0.kept == nil }.count, outputs: current.count + orphans.count, limit: limit)
    }

    /// Deletes each orphan slicevid may delete: its files, then its sidecar. Call under the
    /// manifest's lock.
    /// - Parameters:
    ///   - unsettledFeeds: feeds that changed while the manifest read them: while there are
    ///     any, nothing is deleted (the rows that left may be an export cut short).
    ///   - brake: what the prune would delete against its limit: when it holds, nothing is.
    /// - Returns: the orphans, each marked pruned or with why it was kept.
    package static func prune(_ orphans: [Orphan], unsettledFeeds: [String] = [], brake: PruneBrake? = nil) -> [Orphan] {
        orphans.map { orphan in
            var orphan = orphan
            guard orphan.kept == nil else { return orphan }
            if !unsettledFeeds.isEmpty {
                orphan.kept = "\(unsettledFeeds.joined(separator: ", ")) changed while it was read, so this run deletes nothing; the next run whose read finds it unchanged prunes"
                return orphan
            }
            if let brake, brake.holds {
                orphan.kept = "the prune brake held: this run would delete \(brake.counts), more than its limit of \(brake.limit), so it deletes nothing"
                orphan.heldByBrake = true
                return orphan
            }
            // Judged again now: a file may have been replaced since it was found.
            let sidecar = OutputRecord.reading(for: orphan.path)
            guard let record = sidecar.record, let format = OutputFormat(path: orphan.path), let job = record.job else {
                orphan.kept = sidecar.refusal.map { "its sidecar licenses nothing: \($0)" } ?? "its sidecar is gone or changed"
                return orphan
            }
            let remains = orphan.jobRemains
            orphan = judge(orphan.path, record: record, format: format, job: job)
            orphan.jobRemains = remains
            guard orphan.kept == nil else { return orphan }
            for file in orphan.files where FileSystem.unlink(file) != 0 && errno != ENOENT {
                orphan.kept = "\(file) cannot be deleted (\(String(cString: strerror(errno))))"
                return orphan
            }
            if FileSystem.unlink(orphan.sidecar) != 0 && errno != ENOENT {
                orphan.kept = "its sidecar cannot be deleted (\(String(cString: strerror(errno))))"
                return orphan
            }
            orphan.pruned = true
            return orphan
        }
    }

    /// The orphan at `output`: its files, and whether each still is what the sidecar records.
    private static func judge(_ output: String, record: OutputRecord, format: OutputFormat, job: String) -> Orphan {
        var orphan = Orphan(path: output, job: job, bytes: record.bytes)
        let licence = record.licence(output: output, format: format)
        guard case .recorded(let stamps, nil) = licence else {
            if case .recorded(_, let refusal?) = licence { orphan.kept = refusal }
            return orphan
        }
        // The record's counts were checked as it was read: at most `SequenceSpec.maximumFrames`.
        let paths = format.isSequence ? (0..<max(record.frames, stamps.count)).map { OutputTarget.frameName(pattern: output, index: $0) } : [output]
        for (index, file) in paths.enumerated() {
            switch licence.verdict(file, index: index) {
            case .free: continue
            case .ours: orphan.files.append(file)
            case .foreign(let why):
                orphan.kept = "\(file) \(why)"
                orphan.files = []
                return orphan
            }
        }
        return orphan
    }

    /// Adds `folder` and the folders below it (not through links, not hidden ones) to `folders`.
    private static func collect(_ folder: String, depth: Int, into folders: inout Set<String>, looked: inout Int) {
        guard looked < maximumFolders else { return }
        looked += 1
        folders.insert(folder)
        guard depth < maximumDepth, let names = FileSystem.names(inFolder: folder) else { return }
        var below: [String] = []
        for name in names where !name.hasPrefix(".") {
            let path = (folder == "/" ? "" : folder) + "/" + name
            var info = stat()
            if FileSystem.lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { below.append(path) }
        }
        for path in below.sorted() { collect(path, depth: depth + 1, into: &folders, looked: &looked) }
    }

    /// The outputs' names whose sidecars are in `folder` (`.NAME.slicevid.json` gives `NAME`).
    private static func sidecarNames(in folder: String) -> [String] {
        let suffix = ".slicevid.json"
        let names = (FileSystem.names(inFolder: folder) ?? []).compactMap { name -> String? in
            guard name.hasPrefix("."), name.hasSuffix(suffix), name.count > suffix.count + 1 else { return nil }
            return String(name.dropFirst().dropLast(suffix.count))
        }
        return names.sorted()
    }
}
