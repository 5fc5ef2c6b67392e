// `make --from https://…`: a render whose stills, song or layout fonts and images are URLs
// fetches them into the cache first (RemoteAssets: conditional requests, bounds, retries), then
// renders from the cache's files as from any file; its errors name the URL (credentials
// hidden), not the cache's file.

import Foundation
import SliceKit
import SliceMedia

extension MakeRequest {
    /// Whether a still, the song or a font or image of the layout is an http(s) URL.
    package var hasRemoteInputs: Bool {
        stills.paths.contains(where: RemoteURL.isRemote) || audio.file.map(RemoteURL.isRemote) == true || layout?.hasRemoteFiles == true
    }

    /// This request with its remote stills, song and layout files replaced by the cache's files, and the
    /// cache files with the URLs (redacted) they stand for.
    /// - Throws: `SlicevidError` naming the URL: 75 (`.busy`) when only transient failures
    ///   remain, 66 for a status that will repeat, 65 for a body over its cap.
    /// - Parameter given: the fetcher to use (a test's, to see its prefetching end), else a new one.
    package func fetchingRemoteInputs(cancellation: Cancellation, remote given: RemoteAssets? = nil) throws(SlicevidError) -> (MakeRequest, [(path: String, url: String)]) {
        let remote = given ?? RemoteAssets(options: self.remote)
        // All of them at once (a few per host), before the first is needed.
        let urls: [String]
        switch stills {
        case .demo: urls = []
        case .pair(let from, let to): urls = [from, to]
        case .sequence(let paths): urls = paths
        }
        let ahead = remote.prefetch(urls.compactMap { RemoteURL($0).map { ($0, .still) } } + (audio.file.flatMap(RemoteURL.init).map { [($0, .song)] } ?? [])) {
            cancellation.isCancelled
        }
        // On every way out, a failure of the first URL included: the others' transfers stop.
        defer { ahead.finish() }
        var sources: [(path: String, url: String)] = []
        func local(_ text: String, kind: RemoteKind) throws(SlicevidError) -> String {
            guard let url = RemoteURL(text) else { return text }
            let fetched: FetchedAsset?
            do throws(MediaError) {
                fetched = try remote.fetch(url, kind: kind) { cancellation.isCancelled }
            } catch {
                throw SlicevidError(error)
            }
            guard let fetched else { throw cancellation.stopError(" while fetching \(url.description); no output was written") }
            sources.append((fetched.path, url.description))
            return fetched.path
        }
        var request = self
        switch stills {
        case .demo: break
        case .pair(let from, let to): request.stills = .pair(from: try local(from, kind: .still), to: try local(to, kind: .still))
        case .sequence(let paths):
            var fetched: [String] = []
            for path in paths { fetched.append(try local(path, kind: .still)) }
            request.stills = .sequence(fetched)
        }
        if let song = audio.file { request.audio.file = try local(song, kind: .song) }
        if let layout, layout.hasRemoteFiles {
            let fetched: LocalLayout?
            do throws(MediaError) {
                fetched = try layout.fetchingRemoteFiles(values: variables, remote: remote) { cancellation.isCancelled }
            } catch {
                throw SlicevidError(error)
            }
            guard let fetched else { throw cancellation.stopError(" while fetching the layout's fonts and images; no output was written") }
            request.layout = fetched.layout
            sources += fetched.sources
        }
        return (request, sources)
    }
}

extension SlicevidError {
    /// The error with each cache file it names replaced by its URL, and every URL redacted.
    package func naming(_ sources: [(path: String, url: String)]) -> SlicevidError {
        var text = message
        for source in sources { text = text.replacingOccurrences(of: source.path, with: source.url) }
        let scrubbed = RemoteURL.scrub(text)
        return scrubbed == message ? self : SlicevidError(category, ErrorText(scrubbed))
    }
}
