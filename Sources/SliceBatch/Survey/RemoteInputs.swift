// A job whose stills, song or layout fonts and images are URLs, made local before it is
// surveyed: each URL fetched (or revalidated, or taken from the cache offline) into the cache,
// and the job given the cache's files, so hashing, decoding, isolation and fingerprints treat
// them as any file. What the job says of its inputs (reasons, errors) names the URL, its
// credentials hidden, never the cache's file.

import Foundation
import SliceCampaign
import SliceKit
import SliceMedia
import SlicePipeline

/// A job with its remote inputs fetched.
struct RemoteInputs {
    /// The job, its remote stills, song and layout files replaced by the cache's files.
    let job: ManifestJob
    /// The stills as the manifest names them (URLs redacted), for reasons and logs.
    let shownImages: [String]
    /// The validator (`ETag "a1"`) of each version of the job's remote inputs the cache
    /// remembers, by SHA-256: a plan names a change by them.
    let validators: [String: String]
    /// Each cache file the job reads, and the URL (redacted) it stands for.
    private let sources: [(path: String, url: String)]

    /// Fetches `job`'s remote inputs with `remote`, telling `hashes` the digest of each cache
    /// file the fetch just read, so the survey does not read it again.
    /// - Throws: `JobSurvey.Trouble.failed` naming the URL and why (`.unreachable` when only
    ///   transient failures remain); `.stopped` when `cancellation` was set meanwhile.
    init(_ job: ManifestJob, remote: RemoteAssets, hashes: InputHashes, cancellation: Cancellation) throws(JobSurvey.Trouble) {
        var local = job
        var validators: [String: String] = [:]
        var sources: [(path: String, url: String)] = []
        func fetch(_ text: String, kind: RemoteKind) throws(JobSurvey.Trouble) -> String {
            guard let url = RemoteURL(text) else { return text }
            let fetched: FetchedAsset?
            do throws(MediaError) {
                fetched = try remote.fetch(url, kind: kind) { cancellation.isCancelled }
            } catch {
                throw error.kind == .unreachable ? .unreachable(RemoteURL.scrub(error.description)) : .failed(RemoteURL.scrub(error.description))
            }
            guard let fetched else { throw .stopped }
            if let stamp = fetched.stamp { hashes.know(fetched.path, digest: fetched.digest, stamp: stamp) }
            validators.merge(fetched.validators) { _, new in new }
            sources.append((fetched.path, url.description))
            return fetched.path
        }
        for (index, image) in job.images.enumerated() { local.images[index] = try fetch(image, kind: .still) }
        if let song = job.audio.file { local.audio.file = try fetch(song, kind: .song) }
        if let layout = job.layout, layout.hasRemoteFiles {
            let fetched: LocalLayout?
            do throws(MediaError) {
                fetched = try layout.fetchingRemoteFiles(values: job.layoutValues, remote: remote) { cancellation.isCancelled }
            } catch {
                throw error.kind == .unreachable ? .unreachable(RemoteURL.scrub(error.description)) : .failed(RemoteURL.scrub(error.description))
            }
            guard let fetched else { throw .stopped }
            local.layout = fetched.layout
            validators.merge(fetched.validators) { _, new in new }
            sources += fetched.sources
        }
        self.job = local
        shownImages = job.images.map(RemoteURL.redact)
        self.validators = validators
        self.sources = sources
    }

    /// The URL (redacted) each cache file stands for, by the file's path.
    var fileNames: [String: String] {
        Dictionary(sources.map { ($0.path, $0.url) }) { first, _ in first }
    }

    /// The remote inputs of `jobs`, in the order their jobs ask for them (each URL once): what
    /// a run hands `RemoteAssets.prefetch` before its first job starts.
    static func urls(of jobs: [ManifestJob]) -> [(url: RemoteURL, kind: RemoteKind)] {
        var seen = Set<RemoteURL>()
        var urls: [(url: RemoteURL, kind: RemoteKind)] = []
        for job in jobs {
            for (text, kind) in job.images.map({ ($0, RemoteKind.still) }) + (job.audio.file.map { [($0, RemoteKind.song)] } ?? []) {
                if let url = RemoteURL(text), seen.insert(url).inserted { urls.append((url, kind)) }
            }
        }
        return urls
    }

    /// `message` with each cache file named by the URL it stands for, and every URL redacted.
    func words(_ message: String) -> String {
        var text = message
        for source in sources { text = text.replacingOccurrences(of: source.path, with: source.url) }
        return RemoteURL.scrub(text)
    }
}
