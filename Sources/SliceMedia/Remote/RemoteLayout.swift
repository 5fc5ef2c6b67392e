// A layout's remote parts: the layout or brand file given as a URL (read through `layoutFetch`,
// bounded as a settings file is), and its fonts and images given as URLs, fetched into the cache
// before the render plans the layout, so the text engine's font checks (sealed memory copies,
// table bounds), the still decoder's limits and the fingerprints' file hashes see the cache's
// files as they see any file.

import SliceKit

/// A layout with its remote fonts and images fetched.
package struct LocalLayout: Sendable {
    /// The layout, each remote font and image replaced by the cache's file.
    package let layout: Layout
    /// Each cache file it reads, and the URL (redacted) it stands for.
    package let sources: [(path: String, url: String)]
    /// The validator (`ETag "a1"`) of each version of its remote files, by SHA-256.
    package let validators: [String: String]
}

extension Layout {
    /// Whether a font or image (of any variant) is an http(s) URL.
    package var hasRemoteFiles: Bool {
        (fonts + (layers + variants.flatMap(\.layers)).flatMap(\.remoteCandidates)).contains(where: RemoteURL.isRemote)
    }

    /// This layout with every font and image given as a URL fetched with `remote` and replaced
    /// by the cache's file. An image's `{placeholders}` are filled with `values` first; one that
    /// does not fill is left for the plan to refuse.
    /// - Returns: nil when `stop` said to stop.
    /// - Throws: `MediaError` naming the URL (redacted), as `RemoteAssets.fetch` does.
    package func fetchingRemoteFiles(values: [String: String], remote: RemoteAssets,
                                     stop: @escaping @Sendable () -> Bool) throws(MediaError) -> LocalLayout? {
        var sources: [(path: String, url: String)] = []
        var validators: [String: String] = [:]
        var stopped = false
        func local(_ text: String, kind: RemoteKind) throws(MediaError) -> String {
            guard !stopped, let url = RemoteURL(text) else { return text }
            guard let fetched = try remote.fetch(url, kind: kind, stop: stop) else {
                stopped = true
                return text
            }
            validators.merge(fetched.validators) { _, new in new }
            if !sources.contains(where: { $0.path == fetched.path }) { sources.append((fetched.path, url.description)) }
            return fetched.path
        }
        func localLayers(_ layers: [Layer]) throws(MediaError) -> [Layer] {
            var result = layers
            for index in result.indices {
                switch result[index].content {
                case .image(let path):
                    guard RemoteURL.isRemote(path), let filled = try? Placeholders.fill(path: path, values: values) else { continue }
                    result[index].content = .image(try local(filled, kind: .layoutImage))
                case .text(var text):
                    var fonts: [String] = []
                    for font in text.fonts { fonts.append(try local(font, kind: .font)) }
                    text.fonts = fonts
                    result[index].content = .text(text)
                }
            }
            return result
        }
        var layout = self
        var fonts: [String] = []
        for font in self.fonts { fonts.append(try local(font, kind: .font)) }
        layout.fonts = fonts
        layout.layers = try localLayers(layers)
        for index in layout.variants.indices { layout.variants[index].layers = try localLayers(layout.variants[index].layers) }
        return stopped ? nil : LocalLayout(layout: layout, sources: sources, validators: validators)
    }
}

private extension Layout.Layer {
    /// The paths it reads: its image, or its text's fonts.
    var remoteCandidates: [String] {
        switch content {
        case .image(let path): [path]
        case .text(let text): text.fonts
        }
    }
}

extension RemoteAssets {
    /// How layouts read in this run fetch a layout or brand file given as a URL: into the
    /// cache, held to the layout cap (16 MB by default), its failures one line naming the URL
    /// (66 when it cannot be had, 64 for one over its cap, as a local layout file too large).
    package func layoutFetch(stop: @escaping @Sendable () -> Bool) -> LayoutFetch {
        { url throws(LayoutError) in
            let fetched: FetchedAsset?
            do throws(MediaError) {
                fetched = try self.fetch(url, kind: .layout, stop: stop)
            } catch {
                throw LayoutError(ErrorText(RemoteURL.scrub(error.description)), missing: error.kind != .inputInvalid)
            }
            guard let fetched else { throw LayoutError("\(InputText.quoted(url.description)): stopped while it was fetched", missing: true) }
            return fetched.path
        }
    }
}
