// What a batch finds out about one job before rendering it: the fingerprint of each output,
// the sidecars on disk, whether the job is up to date, and what each output may replace.
// `batch` acts on it; `batch --check` reports it.

import SliceKit
import SliceMedia

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
    init(_ job: ManifestJob, version: String, hashes: inout InputHashes, cancellation: Cancellation) throws(Trouble) {
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
        fingerprint = Fingerprint(sequence: job.sequence, imageHashes: imageHashes, version: version)
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

/// SHA-256 of each input file, read once per run even when many jobs share a still.
struct InputHashes {
    private var known: [String: Result<String, MediaError>] = [:]

    /// The hex SHA-256 of the file at `path`, or nil when `cancellation` stopped it (which is
    /// not remembered: a stopped hash is no result).
    /// - Throws: `MediaError(.inputMissing)` when it is missing, unreadable or not a regular
    ///   file (refused before a byte is read: a FIFO or `/dev/zero` would never end).
    mutating func hash(_ path: String, cancellation: Cancellation) throws(MediaError) -> String? {
        if let cached = known[path] { return try cached.get() }
        let result: Result<String, MediaError>
        do {
            try StillDecoder.checkReadable(path: path)
            guard let hash = try SHA256.hex(ofFileAt: path, stop: { cancellation.isCancelled }) else { return nil }
            result = .success(hash)
        } catch {
            result = .failure(error)
        }
        known[path] = result
        return try result.get()
    }
}
