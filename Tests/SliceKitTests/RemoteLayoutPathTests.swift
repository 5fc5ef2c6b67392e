// A layout read from a URL names only URLs: its relative paths (fonts, images, the brand file
// and what that names) are resolved against its URL as a browser resolves a link, an absolute
// path lands on the same server, and another scheme (`file:`) is refused; a local layout keeps
// a URL it names as it is.

import Foundation
import SliceKit
import Testing

@Suite struct RemoteLayoutPathTests {
    @Test(arguments: [
        ("logo.png", "https://cdn.example/brand/logo.png"),
        ("./logos/{brand}.png", "https://cdn.example/brand/logos/{brand}.png"),
        ("../fonts/A.ttf", "https://cdn.example/fonts/A.ttf"),
        ("../../../../etc/passwd", "https://cdn.example/etc/passwd"),
        ("/etc/passwd", "https://cdn.example/etc/passwd"),
        ("//other.example/a.png", "https://other.example/a.png"),
        ("a.png?v=2", "https://cdn.example/brand/a.png?v=2"),
        ("http://plain.example/a.png", "http://plain.example/a.png"),
    ])
    func pathsResolveAgainstTheURL(reference: String, resolved: String) throws {
        let base = try #require(RemoteURL("https://u:pw@cdn.example/brand/promo.json?token=T"))
        let expected = resolved.hasPrefix("https://cdn.example") ? resolved.replacingOccurrences(of: "https://", with: "https://u:pw@") : resolved
        #expect(base.resolving(reference) == expected)
    }

    @Test func otherSchemesAreRefused() throws {
        let base = try #require(RemoteURL("https://cdn.example/promo.json"))
        for reference in ["file:///etc/passwd", "data:image/png;base64,AAAA", "ftp://x/a.png", "c:/a.png"] {
            #expect(base.resolving(reference) == nil, "\(reference)")
        }
    }

    static let layout = #"""
        {"fonts": ["fonts/A.ttf"], "layers": [
          {"on": "to", "text": "x", "box": [0, 0, 1, 0.5], "fonts": ["/B.ttf"]},
          {"on": "over", "image": "logos/{brand}.png", "box": [0, 0.5, 0.2, 0.2]}
        ]}
        """#

    @Test func aRemoteLayoutsPathsAreURLs() throws {
        let base = try #require(RemoteURL("https://cdn.example/c/promo.json?token=SEKRIT"))
        let layout = try Layout(json: Data(Self.layout.utf8), file: base.description, base: base, fetch: nil)
        #expect(layout.file == "https://cdn.example/c/promo.json?token=REDACTED")
        #expect(layout.fonts == ["https://cdn.example/c/fonts/A.ttf"])
        guard case .text(let text) = layout.layers[0].content, case .image(let image) = layout.layers[1].content else {
            Issue.record("\(layout.layers)")
            return
        }
        #expect(text.fonts == ["https://cdn.example/B.ttf"])
        #expect(image == "https://cdn.example/c/logos/{brand}.png")
        // Another scheme is refused, naming the layout (its token hidden) and the place.
        let refused = #expect(throws: LayoutError.self) {
            try Layout(json: Data(#"{"layers": [{"image": "file:///etc/passwd", "box": [0, 0, 1, 1]}]}"#.utf8), file: base.description, base: base, fetch: nil)
        }
        #expect(refused?.isMissing == false)
        #expect(refused?.description.contains("promo.json?token=REDACTED': layers[0].image: ") == true, "\(String(describing: refused))")
        #expect(refused?.description.contains("never names a local file") == true)
    }

    @Test func aLocalLayoutKeepsAURLAsItIs() throws {
        let layout = try Layout(json: Data(#"{"fonts": ["https://cdn.example/A.ttf?sig=1"], "layers": [{"image": "http://cdn.example/{sku}.png", "box": [0, 0, 1, 1]}]}"#.utf8),
                                file: "promo.json", folder: "/srv/campaign")
        #expect(layout.fonts == ["https://cdn.example/A.ttf?sig=1"])
        #expect(layout.layers[0].content == .image("http://cdn.example/{sku}.png"))
    }

    @Test func aLayoutGivenAsAURLNeedsARunThatFetches() throws {
        let refused = #expect(throws: LayoutError.self) {
            try Layout.load(path: "https://cdn.example/promo.json")
        }
        #expect(refused?.description.contains("read only by a run that fetches") == true)
    }
}
