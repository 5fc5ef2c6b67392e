// A batch manifest (`slicevid batch campaign.json`): top-level defaults and a list of jobs, read
// and checked completely before anything renders, so a typo fails the run with one line.

import Foundation
import Glibc
import SliceKit
import SliceMedia
import SlicePipeline

/// Looks up a preset by name or file path, as `--preset` does.
package typealias PresetResolver = (String) throws(SlicevidError) -> Preset

/// A campaign: every job resolved to absolute paths and complete settings.
///
/// The file is a JSON object: `{"defaults": {…}, "jobs": [{…}, …]}` (and an optional
/// `"description"`). `defaults` takes `preset`, any spec field and the output settings (the
/// encoding flags' names: `crf`, `encoder-preset`, `codec`, `bitrate`, `pix-fmt`, `gif-fps`,
/// `gif-width`, `poster-at`); each job takes the same plus `id`, `images`, `transitions` and
/// `outputs` (see `ManifestJob`). Relative paths are resolved against the manifest's folder.
public struct Manifest: Sendable {
    /// The manifest path as the user gave it; every error names it.
    public let path: String
    /// The absolute folder relative paths are resolved against.
    package let folder: String
    /// The jobs, in file order (matrices expanded in place).
    package let jobs: [ManifestJob]
    /// Whether the manifest was read from standard input (`slicevid batch -`).
    package var isStandardInput = false
    /// SHA-256 of the bytes it was read from, hex: which manifest a report belongs to.
    package var sha256 = ""
    /// Folders below which outputs land where a placeholder names part of their path: where
    /// orphans of rows and combinations that left are looked for (`Orphan.find`).
    package var outputRoots: [String] = []
    /// Feeds that changed while they were read (an export rewriting them) and were read again:
    /// a run renders from what the second read found but prunes nothing, as that may be an
    /// export cut short too.
    package var unsettledFeeds: [String] = []
    /// The manifest's top-level `description`: the report page's title when there is one.
    package var campaignDescription: String?

    /// The manifest as every shard's report describes it (`ManifestDigest`).
    package var digest: ManifestDigest { ManifestDigest(bytes: sha256, jobIds: jobs.map(\.id)) }

    /// How the report names the manifest: its absolute path, or `-` for standard input.
    package var reportName: String {
        isStandardInput ? "-" : URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// Keys accepted at the top level.
    package static let topLevelKeys = ["description", "defaults", "jobs"]

    /// The most jobs a manifest may hold once its matrices are expanded: enough for any
    /// campaign, and a bound on the memory a hostile manifest can ask for.
    package static let maximumJobs = 100_000

    /// Reads, resolves and cross-checks a manifest.
    /// - Parameters:
    ///   - path: the manifest file.
    ///   - presets: resolves `preset` values (names, or files already made absolute).
    ///   - cancellation: stops the reading of a feed on standard input (a stop signal).
    /// - Throws: `SlicevidError` naming the manifest, the job and the field: `.inputMissing`
    ///   when the file (or a feed) cannot be read, `.usage` for everything wrong inside it
    ///   (a feed's problems with its file, line and column), `.interrupted` when `cancellation`
    ///   stopped the reading of a feed.
    ///   - remote: how a layout given as a URL is fetched (the run's cache, offline or not).
    package static func load(path: String, presets: @escaping PresetResolver,
                             cancellation: Cancellation? = nil, remote: RemoteOptions = RemoteOptions()) throws(SlicevidError) -> Manifest {
        let data: Data
        do {
            data = try SettingsFile.read(path: path)
        } catch .missing {
            throw SlicevidError(.inputMissing, "\(path): no such manifest, or it cannot be read")
        } catch .nameTooLong {
            throw SlicevidError(.inputMissing, "\(InputText.quoted(path)): \(SettingsFile.Failure.nameTooLong.reason)")
        } catch .tooLarge(let bytes) {
            throw SlicevidError(.inputInvalid, "\(InputText.quoted(path)): \(SettingsFile.Failure.tooLarge(bytes).reason)")
        } catch {
            throw SlicevidError(.inputMissing, "\(InputText.quoted(path)): \(error.reason)")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path
        return try parse(data, path: path, folder: folder, presets: presets, cancellation: cancellation, remote: remote)
    }

    /// The name a manifest read from standard input goes by in messages; its lock file is
    /// `.stdin.lock` in the working folder.
    package static let standardInputName = "stdin"

    /// The most bytes read from standard input: far more than any manifest, and a bound on a
    /// pipe that never ends.
    package static let maximumStandardInput = 64 << 20

    /// Reads a manifest from standard input (`slicevid batch -`). Relative paths in it are
    /// resolved against the working folder. The read waits in short polls, so a stop signal
    /// (`cancellation`) ends it even when the writer never closes the pipe.
    /// - Throws: `SlicevidError(.usage)` naming `stdin` for a bad manifest or one over
    ///   `maximumStandardInput` bytes; `.interrupted` when `cancellation` stopped the read.
    package static func loadStandardInput(presets: @escaping PresetResolver, cancellation: Cancellation? = nil,
                                          remote: RemoteOptions = RemoteOptions()) throws(SlicevidError) -> Manifest {
        let input = FeedInput(descriptor: STDIN_FILENO, limit: maximumStandardInput) { cancellation?.isCancelled == true }
        let bytes: [UInt8]
        do {
            bytes = try input.readAll()
        } catch where error.isInterrupted {
            let signal = cancellation?.signal ?? SIGINT
            throw SlicevidError(.interrupted(signal: signal), "\(standardInputName): interrupted by \(signalName(signal)) while reading the manifest; nothing was rendered")
        } catch {
            let reason = error.reason.hasPrefix("is larger") ? "the manifest is larger than \(maximumStandardInput >> 20) MiB" : "the manifest \(error.reason)"
            throw SlicevidError(.usage, "\(standardInputName): \(reason)")
        }
        var manifest = try parse(Data(bytes), path: standardInputName, folder: FileSystem.currentFolder() ?? ".", presets: presets,
                                 cancellation: cancellation, remote: remote)
        manifest.isStandardInput = true
        return manifest
    }

    /// Reads, resolves and cross-checks the manifest in `data`.
    private static func parse(_ data: Data, path: String, folder: String, presets: @escaping PresetResolver,
                              cancellation: Cancellation?, remote: RemoteOptions) throws(SlicevidError) -> Manifest {
        let object: Any
        do {
            object = try JSONText.parse(data)
        } catch {
            throw SlicevidError(.usage, "\(path): \(error)")
        }
        let top = ManifestReader(manifest: path, place: nil)
        guard let root = object as? [String: Any] else {
            throw top.error(nil, "expected a JSON object with \"defaults\" and \"jobs\"")
        }
        try top.refuseUnknownKeys(root, accepted: topLevelKeys)
        if let description = root["description"], !(description is String) {
            throw top.error("description", "expected a string")
        }
        var context = ManifestContext(folder: folder, presets: presets)
        context.readsStandardInput = path == standardInputName
        context.cancellation = cancellation
        // The cache is opened only when a layout is a URL (RemoteAssets opens it on first use).
        context.layoutFetch = RemoteAssets(options: remote).layoutFetch { cancellation?.isCancelled ?? false }
        let defaults = try ManifestDefaults(root["defaults"] ?? [String: Any](),
                                            reader: ManifestReader(manifest: path, place: "defaults"), context: &context)
        guard let entries = root["jobs"] as? [Any], !entries.isEmpty else {
            throw top.error("jobs", "expected a non-empty array of jobs")
        }
        // Every template's jobs are counted (its feed read, its matrix sized) before any job is
        // made, so a manifest over the limit costs the reading, not the expanding.
        let tooMany = "the manifest makes more than \(maximumJobs) jobs (feed rows × matrix combinations); split the campaign into several manifests"
        var templates: [JobTemplate] = []
        var total = 0
        for (index, entry) in entries.enumerated() {
            let template = try JobTemplate(entry, reader: ManifestReader(manifest: path, place: "jobs[\(index)]"), context: &context,
                                           budget: maximumJobs - total, tooMany: tooMany)
            total += template.count
            templates.append(template)
        }
        var jobs: [ManifestJob] = []
        jobs.reserveCapacity(total)
        var ids: [String: String] = [:]
        // Outputs by resolved folder: a link to a folder is the same folder.
        var claims = OutputClaims()
        for (index, template) in templates.enumerated() {
            try template.expand(reader: ManifestReader(manifest: path, place: "jobs[\(index)]"),
                                defaultVariables: defaults.cards.variables) { expanded throws(SlicevidError) in
                var job = try ManifestJob(expanded.object, index: index, manifest: path, defaults: defaults, context: &context)
                job.variables = expanded.variables
                let reader = ManifestReader(manifest: path, place: ManifestReader.place(ofJob: job.id))
                let layoutShown = try job.checkLayoutValues(reader: reader, origins: expanded.origins)
                // The row's values the job uses, and no others, are part of its fingerprint, with
                // what its formats wrote of them.
                let layoutNames = job.layoutNames
                job.row = expanded.row?.keeping(expanded.names(usedBy: layoutNames))
                    .showing(expanded.shown(usedBy: layoutNames).merging(layoutShown) { own, layout in own + layout.filter { !own.contains($0) } })
                let origin = "jobs[\(index)]" + (expanded.combination.map { " (\($0))" } ?? "")
                if let first = ids[job.id] {
                    throw reader.error("id", "used by \(first) and \(origin); ids must be unique")
                }
                ids[job.id] = origin
                for place in job.outputs.compactMap({ OutputPlace($0.destination) }) {
                    let output = place.path
                    if let other = claims.conflict(with: place) {
                        let same = other.place.path == output ? "is also" : "is the same output as \(other.place.path),"
                        let by = other.job == job.id ? "this job" : ManifestReader.place(ofJob: other.job)
                        throw reader.error("outputs", "\(output) \(same) written by \(by); every output needs its own path")
                    }
                    claims.claim(place, by: job.id)
                }
                jobs.append(job)
            }
        }
        var manifest = Manifest(path: path, folder: folder, jobs: jobs)
        manifest.outputRoots = Array(Set(templates.flatMap(\.outputRoots))).sorted()
        manifest.unsettledFeeds = context.unsettledFeeds
        manifest.campaignDescription = root["description"] as? String
        let sha = SHA256()
        data.withUnsafeBytes { sha.update($0) }
        manifest.sha256 = sha.finalHex()
        return manifest
    }
}

/// What every job starts from: the defaults' preset, spec fields and output settings.
struct ManifestDefaults {
    let preset: Preset?
    /// The preset as the defaults name it, for messages; nil when none is named by a string.
    let presetName: String?
    /// Spec fields exactly as written, applied over each job's preset.
    let fields: [String: Any]
    let encoder: EncoderSettings
    /// `audio` as written, applied over each job's preset before the job's own.
    let audio: Any?
    /// The layout, variables and safe zone every job starts from.
    let cards: ManifestCards

    init(_ value: Any, reader: ManifestReader, context: inout ManifestContext) throws(SlicevidError) {
        guard let object = value as? [String: Any] else { throw reader.error(nil, "expected an object of preset fields") }
        try reader.refuseUnknownKeys(object, accepted: ["preset", "audio"] + ManifestCards.keys + ManifestReader.outputKeys + SpecField.allCases.map(\.rawValue))
        preset = try object["preset"].map { value throws(SlicevidError) in try context.preset(value, reader: reader) }
        presetName = object["preset"] as? String
        fields = object.filter { SpecField(rawValue: $0.key) != nil }
        encoder = try reader.encoder(object, base: EncoderSettings())
        audio = object["audio"]
        cards = try reader.cards(object, over: ManifestCards(), context: context)
        _ = try reader.audio(audio, over: preset?.audio ?? AudioSettings(), context: context)
        // Checked here once, so a bad default is reported as such rather than under a job.
        _ = try reader.apply(fields, to: preset?.spec ?? TransitionSpec())
    }
}

/// State shared while reading one manifest: its folder and the presets resolved so far.
struct ManifestContext {
    let folder: String
    let presets: PresetResolver
    private var resolved: [String: Preset] = [:]
    /// Layout files read so far, by absolute path: each is read once however many jobs use it.
    private let layouts = LayoutCache()
    /// Feeds read so far, by format, separator, key and path.
    var feeds: [String: Feed] = [:]
    /// The version of each feed file read, by path: every template reading it must see that one.
    var feedVersions: [String: FeedInput.Stamp] = [:]
    /// Feeds that changed while they were read and were read again, as the manifest names them.
    var unsettledFeeds: [String] = []
    /// Whether the manifest came on standard input, which then carries no feed.
    var readsStandardInput = false
    /// Whether a feed was read from standard input already.
    var standardInputTaken = false
    /// Stops the reading of a feed on standard input.
    var cancellation: Cancellation?
    /// Fetches a layout (or the brand file it imports) given as a URL.
    var layoutFetch: LayoutFetch?

    init(folder: String, presets: @escaping PresetResolver) {
        self.folder = folder
        self.presets = presets
    }

    /// The layout file at `path` (absolute), or at a URL, read once for the whole manifest.
    func layout(_ path: String) throws(LayoutError) -> Layout {
        try layouts.load(path, fetch: layoutFetch)
    }

    /// A path from the manifest (UTF-8, being JSON), absolute and standardised. The folder may
    /// hold bytes that are not UTF-8, from the command line (`PathBytes`).
    /// An http(s) URL (a remote still or song) is kept as it is.
    func absolute(_ path: String) -> String {
        if RemoteURL.isRemote(path) { return path }
        return URL(fileURLWithPath: PathBytes.text(utf8: path), relativeTo: URL(fileURLWithPath: folder, isDirectory: true)).standardizedFileURL.path
    }

    /// Resolves a `preset` value: names as `--preset` knows them, files (anything with a slash
    /// or ending in .json, the rule `--preset` uses) relative to the manifest's folder.
    mutating func preset(_ value: Any, reader: ManifestReader) throws(SlicevidError) -> Preset {
        guard let name = value as? String, !name.isEmpty else {
            throw reader.error("preset", "expected a preset name or a preset file path")
        }
        let isFile = PresetCatalog.isPath(name)
        let key = isFile ? absolute(name) : name
        if let preset = resolved[key] { return preset }
        do {
            let preset = try presets(key)
            resolved[key] = preset
            return preset
        } catch {
            throw reader.error("preset", error.message(ManifestWording()))
        }
    }
}
