// A sidecar made from a campaign job's fingerprint: the record keeps its hash and its lines. Here,
// beside `Fingerprint`, because the render's outputs (SlicePipeline) know no campaign.

import SlicePipeline

extension OutputRecord {
    /// Describes an output being committed by a campaign's job.
    /// - Parameters:
    ///   - files: the stamps of its files, in frame order (one for a single file).
    ///   - fingerprint: what produced it.
    ///   - written: what it holds: frames, rate and seconds as written.
    ///   - manifest: the manifest that wrote it, as its report names it.
    ///   - job: the id of the job that wrote it.
    package init(files: [FileStamp], fingerprint: Fingerprint, written: WrittenOutput, manifest: String? = nil, job: String? = nil) {
        self.init(files: files, fingerprint: fingerprint.value, producedBy: fingerprint.lines, written: written, manifest: manifest, job: job)
    }
}
