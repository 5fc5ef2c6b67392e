// Layouts through the library: a layout file, or a layout at an http(s) URL fetched into the
// run's cache (bounded, revalidated, offline when the run is), read as `make --layout` reads it.

import SliceKit
import SliceMedia
import SlicePipeline

extension Slicevid {
    /// Reads the layout at `path`: a file, or an http(s) URL fetched with `remote` (its paths
    /// then resolved against the URL; a local file is never read for it).
    /// - Parameters:
    ///   - remote: the cache, offline or not, CA file and bounds a URL is fetched with.
    ///   - cancellation: stops a fetch.
    /// - Throws: `LayoutError`: missing (66: the file, or a URL that cannot be had) or invalid
    ///   (64), one line naming the file or URL, its credentials hidden.
    public static func layout(at path: String, remote: RemoteOptions = RemoteOptions(),
                              cancellation: Cancellation = Cancellation()) throws(LayoutError) -> Layout {
        try Layout.load(path: path, fetch: RemoteAssets(options: remote).layoutFetch { cancellation.isCancelled })
    }
}
