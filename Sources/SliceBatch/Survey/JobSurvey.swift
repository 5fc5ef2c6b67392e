// What a batch finds out about one job before rendering it: the fingerprint of each output,
// the sidecars on disk, whether the job is up to date, and what each output may replace.
// `batch` acts on it; `batch --check` reports it.

import Dispatch
import Glibc
import SliceCampaign
import SliceKit
import SliceMedia
import SlicePipeline
import Synchronization

/// One job of a batch, examined.
struct JobSurvey {
    /// One output of the job.
    struct Output {
        let path: String
        let format: OutputFormat
        /// Frames this output writes (a sequence's file count).
        let frames: Int
        let fingerprint: Fingerprint
        /// The sidecar found beside it, whatever fingerprint it records.
        let sidecar: OutputRecord.Reading
        /// The sidecar's record, when it is one of the running user's: nothing else counts.
        var record: OutputRecord? { sidecar.record }
        /// How the job's layout names its layers, in drawing order, for reasons.
        var layers: [String] = []
        /// The layout's font and image files, in the order its fingerprint numbers them.
        var layoutFiles: [String] = []

        /// Whether the output on disk is what this run would write: present with its recorded
        /// size, and a sidecar with this fingerprint.
        var isUpToDate: Bool {
            guard let record else { return false }
            return record.fingerprint == fingerprint.value && record.describesDisk(output: path, format: format)
        }

        /// Why this output must render (empty when it is up to date).
        /// - Parameter images: the job's still paths, to name one whose bytes changed.
        /// - Parameter validators: the validator (`ETag "a1"`) of each remote input's versions, by digest.
        /// - Parameter shown: how a file is named to the user (a cache's file by its URL).
        func reasons(images: [String], validators: [String: String] = [:], shown: (String) -> String = { $0 }) -> [RenderReason] {
            let bytes = OutputRecord.bytesOnDisk(output: path, format: format, frames: record?.frames ?? frames)
            return RenderReason.reasons(output: path, record: record, fingerprint: fingerprint,
                                        onDisk: record.map { bytes == $0.bytes } ?? false, bytes: bytes, images: images, layers: layers,
                                        refusal: sidecar.refusal, validators: validators, layoutFiles: layoutFiles.map(shown))
        }
    }

    /// Why a job could not be examined.
    enum Trouble: Error {
        /// An input is missing or unreadable, or the job cannot be planned; the text says why.
        case failed(String)
        /// A remote input could not be fetched for now (timeouts, resets, 5xx, 429 after every
        /// attempt): worth a retry later; the text says why.
        case unreachable(String)
        /// The run was stopped while the stills were being hashed.
        case stopped
    }

    let fingerprint: Fingerprint
    let outputs: [Output]
    /// The layout the job's last frame is drawn in for its page's poster (its first output's).
    let canvas: PixelLayout
    /// SHA-256 of the layout's font files as read and checked here (they are in
    /// `fingerprint`): the job's render refuses a font that no longer has these bytes.
    let layoutDigests: [String: String]
    /// The job's stills, and its music bed, as they were when hashed: whether one changed
    /// before the job's outputs were committed is looked at again then.
    private let stills: [(path: String, stamp: InputStamp?)]
    private let audio: (path: String, stamp: InputStamp?)?

    /// Whether every output is up to date, so the job can be skipped.
    var isUpToDate: Bool { outputs.allSatisfy(\.isUpToDate) }

    /// Why the job renders, each reason once (a still that changed concerns every output):
    /// empty when it is up to date, `forced` alone when only `--force` makes it render.
    /// - Parameter wording: how the run's front end names `force`, the reason when it is the only one.
    func reasons(images: [String], validators: [String: String] = [:], shown: (String) -> String = { $0 }, force: Bool,
                 wording: any Wording) -> [RenderReason] {
        var all: [RenderReason] = []
        for output in outputs {
            for reason in output.reasons(images: images, validators: validators, shown: shown) where !all.contains(reason) { all.append(reason) }
        }
        if force && all.isEmpty { all.append(RenderReason(kind: .forced, description: wording.name(.force))) }
        return all
    }

    /// What each output may replace: anything with `force`, else exactly the files its
    /// sidecar records slicevid wrote, keyed by output path as `MakeRequest` takes them.
    func replacements(force: Bool) -> [String: Replacement] {
        var licences: [String: Replacement] = [:]
        for output in outputs {
            licences[output.path] = force ? .anything : output.sidecar.licence(output: output.path, format: output.format)
        }
        return licences
    }

    /// The inputs whose file is no longer the one hashed (replaced, rewritten or gone): their
    /// positions among the stills, and whether the music bed is one of them.
    func inputsChangedSinceHashing() -> (stills: [Int], audio: Bool) {
        func changed(_ input: (path: String, stamp: InputStamp?)) -> Bool {
            input.stamp == nil || InputStamp(path: input.path) != input.stamp
        }
        return (stills.indices.filter { changed(stills[$0]) }, audio.map(changed) ?? false)
    }

    /// Hashes the job's stills, plans its outputs and reads their sidecars.
    /// - Throws: `Trouble.failed` for an unreadable still or an impossible output;
    ///   `Trouble.stopped` when `cancellation` was set while hashing.
    init(_ job: ManifestJob, version: String, hashes: InputHashes, fileNames: [String: String] = [:], cancellation: Cancellation) throws(Trouble) {
        var imageHashes: [String] = []
        for path in job.images {
            let hash: String?
            do throws(MediaError) {
                hash = try hashes.hash(path, cancellation: cancellation)
            } catch {
                throw .failed(error.description)
            }
            guard let hash else { throw .stopped }
            imageHashes.append(hash)
        }
        var audio: (settings: AudioSettings, hash: String)?
        if let file = job.audio.file {
            let hash: String?
            do throws(MediaError) {
                hash = try hashes.hash(file, cancellation: cancellation)
            } catch {
                throw .failed(error.description)
            }
            guard let hash else { throw .stopped }
            audio = (job.audio, hash)
        }
        stills = job.images.map { ($0, hashes.stamp(of: $0)) }
        self.audio = job.audio.file.map { ($0, hashes.stamp(of: $0)) }
        // The plans say what each output would be; their facts are part of its fingerprint.
        let planned: MakePlan
        do {
            planned = try MakeJob.plan(job.request(force: true, renderThreads: 1))
        } catch {
            // Planned with force: no run setting can be what went wrong.
            throw Trouble.failed(error.message(job.wording(run: KeyWording())))
        }
        // The layout's fonts and images count by their bytes, as stills do; a font's are the
        // ones the plan read and checked, which the job's render must find again.
        var fileHashes = planned.layout?.fontDigests ?? [:]
        layoutDigests = fileHashes
        for file in planned.layout?.files ?? [] where fileHashes[file] == nil {
            let hash: String?
            do throws(MediaError) {
                hash = try hashes.hash(file, cancellation: cancellation)
            } catch {
                throw .failed(error.description)
            }
            guard let hash else { throw .stopped }
            fileHashes[file] = hash
        }
        fingerprint = Fingerprint(sequence: job.sequence, imageHashes: imageHashes, version: version, audio: audio, row: job.row?.values ?? [])
            .adding(planned.layout, fileHashes: fileHashes, fileNames: fileNames)
        canvas = planned.lastFrameLayout
        outputs = planned.outputs.map { [fingerprint] plan in
            Output(path: plan.path, format: plan.format, frames: plan.frameCount,
                   fingerprint: fingerprint.output(plan), sidecar: OutputRecord.reading(for: plan.path),
                   layers: planned.layout?.layers.map(\.name) ?? [], layoutFiles: planned.layout?.files ?? [])
        }
    }
}

/// SHA-256 of each input file, read once per run even when many jobs share a still, and
/// jobs running side by side ask for it at the same moment: the second waits for the first.
final class InputHashes: Sendable {
    /// Each hashed file as it was just before its bytes were read.
    private let stamps = Mutex([String: InputStamp]())
    private let hashes = OncePerKey<String, String, MediaError>()
    /// Files this run already hashed elsewhere (the cache's objects, checked when fetched):
    /// their digest, and their stamp from just before that read.
    private let known = Mutex([String: (digest: String, stamp: InputStamp)]())
    /// Files whose bytes `hash` read (for tests).
    private let reads = Atomic<Int>(0)
    var filesRead: Int { reads.load(ordering: .relaxed) }

    /// Tells that this run read the file at `path`, stamped `stamp` just before, and its bytes
    /// hash to `digest`: `hash` takes that digest while the file's stamp is still `stamp`.
    func know(_ path: String, digest: String, stamp: InputStamp) {
        known.withLock { $0[path] = (digest, stamp) }
    }

    /// The file at `path` as it was when `hash` began to read it; nil before that.
    func stamp(of path: String) -> InputStamp? { stamps.withLock { $0[path] } }

    /// The hex SHA-256 of the file at `path`, or nil when `cancellation` stopped it (which is
    /// not remembered: a stopped hash is no result).
    /// - Throws: `MediaError(.inputMissing)` when it is missing, unreadable or not a regular
    ///   file (refused before a byte is read: a FIFO or `/dev/zero` would never end).
    func hash(_ path: String, cancellation: Cancellation) throws(MediaError) -> String? {
        // Another job reading it makes this one wait; a signal must still stop this one promptly.
        try hashes.value(for: path, stop: { cancellation.isCancelled }) { () throws(MediaError) -> String? in
            try StillDecoder.checkReadable(path: path)
            // Noted before the first byte is read: a change while hashing shows too.
            let stamp = InputStamp(path: path)
            stamps.withLock { $0[path] = stamp }
            // Read already, and not changed since (same file, size, and modification and
            // status-change times): not read again.
            if let stamp, let known = known.withLock({ $0[path] }), known.stamp == stamp { return known.digest }
            reads.add(1, ordering: .relaxed)
            return try SHA256.hex(ofFileAt: path, stop: { cancellation.isCancelled })
        }
    }
}
