// How a URL is shown wherever slicevid shows it: credentials (userinfo, token=, sig=, S3's and
// GCS's signed-URL parameters) replaced, everything else as written; paths are not URLs.

import SliceKit
import Testing

@Suite struct RemoteURLTests {
    @Test(arguments: [
        ("https://cdn.example/p/a.jpg", "https://cdn.example/p/a.jpg"),
        ("https://user:pa55@cdn.example/a.jpg", "https://cdn.example/a.jpg"),
        ("http://cdn.example/a.jpg?w=800&token=abc123&h=600", "http://cdn.example/a.jpg?w=800&token=REDACTED&h=600"),
        ("https://b.s3.amazonaws.com/a.jpg?X-Amz-Credential=AK%2F1&X-Amz-Signature=ff00&X-Amz-Expires=60",
         "https://b.s3.amazonaws.com/a.jpg?X-Amz-Credential=REDACTED&X-Amz-Signature=REDACTED&X-Amz-Expires=REDACTED"),
        ("https://x.blob.core.windows.net/c/a.png?sv=2021&sig=Zm9v%3D", "https://x.blob.core.windows.net/c/a.png?sv=2021&sig=REDACTED"),
        ("HTTPS://cdn.example/a.jpg?%74oken=1#frag", "HTTPS://cdn.example/a.jpg?%74oken=REDACTED"),
    ])
    func credentialsAreHidden(url: String, shown: String) throws {
        let remote = try #require(RemoteURL(url))
        #expect(remote.description == shown)
        #expect(RemoteURL.scrub("fetching \(url): HTTP 404 (\"\(url)\")") == "fetching \(shown): HTTP 404 (\"\(shown)\")")
    }

    @Test func pathsAreNotURLs() {
        for path in ["stills/a.jpg", "/srv/http/a.jpg", "https:a.jpg", "ftp://x/a.jpg", ""] {
            #expect(RemoteURL(path) == nil, "\(path)")
            #expect(RemoteURL.redact(path) == path)
        }
        #expect(RemoteURL("https://user:pw@Cdn.Example:8443/a")?.origin == "https://cdn.example:8443")
    }
}
