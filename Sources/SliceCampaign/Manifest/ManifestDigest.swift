// What every shard's report says about the whole manifest, so `report merge` can tell reports of
// one campaign from reports of another and find a shard or a job that is missing, without the
// manifest at hand (shards may see it under different paths).

import SliceMedia

/// The manifest a report belongs to: its bytes, its number of jobs and their ids.
package struct ManifestDigest: Sendable, Equatable {
    /// SHA-256 of the manifest file's bytes (of standard input's, for `-`), hex.
    package var bytes: String
    /// How many jobs the manifest holds, matrices expanded.
    package var jobs: Int
    /// `ids(_:)` of every job id in manifest order.
    package var ids: String

    /// The digest of `manifest`, whose bytes hashed to `bytes`.
    package init(bytes: String, jobIds: [String]) {
        self.bytes = bytes
        jobs = jobIds.count
        ids = ManifestDigest.ids(jobIds)
    }

    package init(bytes: String, jobs: Int, ids: String) {
        self.bytes = bytes
        self.jobs = jobs
        self.ids = ids
    }

    /// SHA-256 (hex) of the ids in order, each as a netstring (`<UTF-8 byte count>:<bytes>,`),
    /// so no two lists of ids give the same bytes, whatever characters the ids hold.
    package static func ids(_ ids: [String]) -> String {
        let sha = SHA256()
        for id in ids { sha.update("\(id.utf8.count):\(id),") }
        return sha.finalHex()
    }
}
