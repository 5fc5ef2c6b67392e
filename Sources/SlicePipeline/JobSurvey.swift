// What a batch finds out about one job before rendering it: the fingerprint of each output,
// the sidecars on disk, whether the job is up to date, and what each output may replace.
// `batch` acts on it; `batch --check` reports it.

import Dispatch
import SliceKit
import SliceMedia
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
        let record: OutputRecord?

        /// Whether the output on disk is what this run would write: present with its recorded
        /// size, and a sidecar with this fingerprint.
        var isUpToDate: Bool {
            guard let record else { return false }
            return record.fingerprint == fingerprint.value && record.describesDisk(output: path, format: format)
        }

        /// Why this output must render (empty when it is up to date).
        /// - Parameter images: the job's still paths, to name one whose bytes changed.
        func reasons(images: [String]) -> [RenderReason] {
            let bytes = OutputRecord.bytesOnDisk(output: path, format: format, frames: record?.frames ?? frames)
            return RenderReason.reasons(output: path, record: record, fingerprint: fingerprint,
                                        onDisk: record.map { bytes == $0.bytes } ?? false, bytes: bytes, images: images)
        }
    }

    /// Why a job could not be examined.
    enum Trouble: Error {
        /// An input is missing or unreadable, or the job cannot be planned; the text says why.
        case failed(String)
        /// The run was stopped while the stills were being hashed.
        case stopped
    }

    let fingerprint: Fingerprint
    let outputs: [Output]

    /// Whether every output is up to date, so the job can be skipped.
    var isUpToDate: Bool { outputs.allSatisfy(\.isUpToDate) }

    /// Why the job renders, each reason once (a still that changed concerns every output):
    /// empty when it is up to date, `forced` alone when only `--force` makes it render.
    func reasons(images: [String], force: Bool) -> [RenderReason] {
        var all: [RenderReason] = []
        for output in outputs {
            for reason in output.reasons(images: images) where !all.contains(reason) { all.append(reason) }
        }
        if force && all.isEmpty { all.append(RenderReason(kind: .forced, description: "--force")) }
        return all
    }

    /// What each output may replace: anything with `force`, else exactly the files its
    /// sidecar records slicevid wrote, keyed by output path as `MakeRequest` takes them.
    func replacements(force: Bool) -> [String: Replacement] {
        var licences: [String: Replacement] = [:]
        for output in outputs {
            licences[output.path] = force ? .anything : .recorded(output.record?.licence(output: output.path, format: output.format) ?? [])
        }
        return licences
    }

    /// Hashes the job's stills, plans its outputs and reads their sidecars.
    /// - Throws: `Trouble.failed` for an unreadable still or an impossible output;
    ///   `Trouble.stopped` when `cancellation` was set while hashing.
    init(_ job: ManifestJob, version: String, hashes: InputHashes, cancellation: Cancellation) throws(Trouble) {
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
        fingerprint = Fingerprint(sequence: job.sequence, imageHashes: imageHashes, version: version, audio: audio)
        // The plans say what each output would be; their facts are part of its fingerprint.
        let planned: MakePlan
        do {
            planned = try MakeJob.plan(job.request(force: true, jobs: 1))
        } catch {
            throw Trouble.failed(error.message)
        }
        outputs = planned.outputs.map { [fingerprint] plan in
            Output(path: plan.path, format: plan.format, frames: plan.frameCount,
                   fingerprint: fingerprint.output(plan, canvas: planned.renderLayout), record: OutputRecord.read(for: plan.path))
        }
    }
}

/// SHA-256 of each input file, read once per run even when many jobs share a still, and
/// jobs running side by side ask for it at the same moment: the second waits for the first.
final class InputHashes: Sendable {
    private struct State {
        var known: [String: Result<String, MediaError>] = [:]
        /// Files being hashed, and the group their hasher leaves when done.
        var hashing: [String: DispatchGroup] = [:]
    }

    private let state = Mutex(State())

    /// What a caller of `hash` does next.
    private enum Turn {
        case known(Result<String, MediaError>)
        case wait(DispatchGroup)
        case hash(DispatchGroup)
    }

    /// The hex SHA-256 of the file at `path`, or nil when `cancellation` stopped it (which is
    /// not remembered: a stopped hash is no result).
    /// - Throws: `MediaError(.inputMissing)` when it is missing, unreadable or not a regular
    ///   file (refused before a byte is read: a FIFO or `/dev/zero` would never end).
    func hash(_ path: String, cancellation: Cancellation) throws(MediaError) -> String? {
        while true {
            let turn = state.withLock { state -> Turn in
                if let known = state.known[path] { return .known(known) }
                if let group = state.hashing[path] { return .wait(group) }
                let group = DispatchGroup()
                group.enter()
                state.hashing[path] = group
                return .hash(group)
            }
            switch turn {
            case .known(let result):
                return try result.get()
            case .wait(let group):
                // Another job is reading it; a signal must still stop this one promptly.
                while group.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
                    if cancellation.isCancelled { return nil }
                }
            case .hash(let group):
                defer {
                    state.withLock { _ = $0.hashing.removeValue(forKey: path) }
                    group.leave()
                }
                let result: Result<String, MediaError>
                do {
                    try StillDecoder.checkReadable(path: path)
                    guard let hash = try SHA256.hex(ofFileAt: path, stop: { cancellation.isCancelled }) else { return nil }
                    result = .success(hash)
                } catch {
                    result = .failure(error)
                }
                state.withLock { $0.known[path] = result }
                return try result.get()
            }
        }
    }
}
