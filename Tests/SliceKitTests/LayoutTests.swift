// Layout files read strictly: every layer's place, box, text settings and timing, variants per
// aspect, safe zones, placeholders; and every mistake refused with one line naming the file and
// the place in it.

import Foundation
import SliceKit
import Testing

@Suite struct LayoutTests {
    /// The issue's example, as a user writes it.
    static let promo = """
        {"fonts": ["fonts/Brand.otf"], "safe-zone": "tiktok", "layers": [
          {"on": "to",   "text": "{name}",  "box": [0.06, 0.60, 0.88, 0.14], "size": "auto", "color": "#FFFFFF"},
          {"on": "to",   "text": "{price}", "box": [0.06, 0.76, 0.40, 0.09], "color": "#FFFFFF", "plate": "#E30613"},
          {"on": "over", "image": "logo.png", "box": [0.86, 0.04, 0.10, 0.10], "fade-in": 0.5},
          {"name": "legal", "on": "over", "text": "Prices incl. VAT", "box": [0.05, 0.93, 0.90, 0.04], "size": 22}
        ],
        "9:16": [{"on": 1, "text": "Story", "box": [0.1, 0.2, 0.8, 0.1], "plate": {"color": "#00000080", "padding": 12, "radius": 8}}]}
        """

    static func read(_ json: String) throws(LayoutError) -> Layout {
        try Layout(json: Data(json.utf8), file: "promo.json", folder: "/campaign")
    }

    @Test func theIssuesExampleReadsAsWritten() throws {
        let layout = try Self.read(Self.promo)
        #expect(layout.fonts == ["/campaign/fonts/Brand.otf"] && layout.safeZones == [.tiktok])
        #expect(layout.layers.map(\.name) == ["layer 1", "layer 2", "layer 3", "layer 'legal'"])
        #expect(layout.layers[0].placement == .card(.to) && layout.layers[2].placement == .over(Layout.Timing(fadeIn: 0.5)))
        #expect(layout.layers[2].content == .image("/campaign/logo.png"))
        guard case .text(let price) = layout.layers[1].content, case .text(let legal) = layout.layers[3].content else {
            Issue.record("text layers")
            return
        }
        #expect(price.template == "{price}" && price.plate == Layout.Text.Plate(color: RGBAColor(hex: "#E30613")!) && price.size == .auto(min: 12, max: 400))
        #expect(legal.size == .pixels(22))
        #expect(layout.variants.count == 1 && layout.variants[0].aspect.description == "9:16" && layout.variants[0].layers[0].name == "9:16 layer 1")
        // The nearest variant is drawn beside the common layers: 9:16 for a story, none for 16:9? The only one there is.
        #expect(layout.layers(forWidth: 1080, height: 1920).variant?.description == "9:16")
        #expect(layout.layers(forWidth: 1080, height: 1920).layers.count == 5)
    }

    @Test("the nearest aspect's variant is chosen, by the ratio's logarithm")
    func nearestVariant() throws {
        let layout = try Self.read("""
            {"16:9": [{"text": "wide", "box": [0, 0, 1, 0.1]}], "1:1": [{"text": "square", "box": [0, 0, 1, 0.1]}],
             "9:16": [{"text": "tall", "box": [0, 0, 1, 0.1]}]}
            """)
        #expect(layout.layers(forWidth: 1920, height: 1080).variant?.description == "16:9")
        #expect(layout.layers(forWidth: 1080, height: 1350).variant?.description == "1:1")
        #expect(layout.layers(forWidth: 720, height: 1280).variant?.description == "9:16")
    }

    @Test("a variant may keep its own safe zone: the vertical one for a platform's feed, the wide one none")
    func variantSafeZones() throws {
        let layout = try Self.read("""
            {"safe-zone": "stories", "16:9": [{"text": "wide", "box": [0, 0.9, 1, 0.1]}],
             "9:16": {"safe-zone": "reels", "layers": [{"text": "tall", "box": [0.1, 0.4, 0.8, 0.1]}]},
             "1:1": {"safe-zone": "none", "layers": [{"text": "square", "box": [0, 0.9, 1, 0.1]}]},
             "4:5": {"layers": [{"text": "portrait", "box": [0.1, 0.4, 0.8, 0.1]}]}}
            """)
        #expect(layout.variants.first { $0.aspect.description == "9:16" }?.layers.map(\.name) == ["9:16 layer 1"])
        #expect(layout.safeZones(forWidth: 1080, height: 1920) == [.reels])
        #expect(layout.safeZones(forWidth: 1080, height: 1080) == [])
        #expect(layout.safeZones(forWidth: 1080, height: 1350) == [.stories], "a variant that says nothing keeps the layout's")
        // The run's own choice wins over the variant's.
        #expect(SafeZone.Choice.fromLayout.resolved(layout, width: 1080, height: 1920) == [.reels])
        #expect(SafeZone.Choice.none.resolved(layout, width: 1080, height: 1920) == [])
        #expect(SafeZone.Choice.platform(.tiktok).resolved(layout, width: 1080, height: 1080) == [.tiktok])
        for (json, expected) in [(#"{"9:16": {"safe-zone": "myspace", "layers": []}}"#, "9:16.safe-zone: expected one of tiktok"),
                                 (#"{"9:16": {"safe-zone": [], "layers": []}}"#, "9:16.safe-zone: expected one of tiktok"),
                                 (#"{"9:16": {"safe-zone": ["reels", "reels"], "layers": []}}"#, "or a list of platforms such as [\"tiktok\""),
                                 (#"{"9:16": {"safe-zone": ["reels", "none"], "layers": []}}"#, "(each once)"),
                                 (#"{"safe-zone": ["reels", 7], "layers": []}"#, "'promo.json': safe-zone: expected one of"),
                                 (#"{"9:16": {"zone": "reels", "layers": []}}"#, "9:16.zone: unknown field; accepted: layers, safe-zone"),
                                 (#"{"9:16": {"safe-zone": "reels"}}"#, "9:16: expected \"layers\"")] {
            #expect(throws: LayoutError.self) { try Self.read(json) }
            do { _ = try Self.read(json) } catch { #expect(error.description.contains(expected), "\(error.description)") }
        }
    }

    @Test("several safe zones on a layout or a variant, each kept in the order written")
    func severalSafeZones() throws {
        let layout = try Self.read("""
            {"safe-zone": ["tiktok", "reels", "shorts"], "layers": [{"text": "x", "box": [0.1, 0.4, 0.8, 0.1]}],
             "9:16": [{"text": "tall", "box": [0.1, 0.4, 0.8, 0.1]}],
             "1:1": {"safe-zone": ["stories", "tiktok"], "layers": [{"text": "square", "box": [0.1, 0.4, 0.8, 0.1]}]}}
            """)
        #expect(layout.safeZones == [.tiktok, .reels, .shorts])
        #expect(layout.safeZones(forWidth: 1080, height: 1920) == [.tiktok, .reels, .shorts])
        #expect(layout.safeZones(forWidth: 1080, height: 1080) == [.stories, .tiktok])
        #expect(SafeZone.Choice(parsing: "tiktok,reels") == .platforms([.tiktok, .reels]))
        #expect(SafeZone.Choice(parsing: "tiktok,tiktok") == nil && SafeZone.Choice(parsing: "tiktok,") == nil && SafeZone.Choice(parsing: "none,reels") == nil)
        #expect(SafeZone.Choice(json: ["shorts"]) == .platform(.shorts) && SafeZone.Choice(json: "none") == SafeZone.Choice.none)
        #expect(SafeZone.Choice(json: "tiktok,reels") == nil, "a file writes a list, not a comma string")
        #expect(SafeZone.possessive([.tiktok, .reels, .shorts]) == "TikTok's, Instagram Reels' and YouTube Shorts'")
    }

    @Test("every mistake is one line naming the file, the place and what is accepted", arguments: [
        (##"{"layers": [{"text": "x", "box": [0.5, 0.5, 0.6, 0.1]}]}"##, "'promo.json': layers[0].box: reaches past the frame"),
        (##"{"layers": [{"text": "x"}]}"##, "'promo.json': layers[0].box: missing"),
        (##"{"layers": [{"text": "x", "image": "a.png", "box": [0, 0, 1, 1]}]}"##, "has both \"text\" and \"image\""),
        (##"{"layers": [{"box": [0, 0, 1, 1]}]}"##, "needs \"text\" or \"image\""),
        (##"{"layers": [{"text": "x", "box": [0, 0, 1, 1], "on": "middle"}]}"##, "layers[0].on: 'middle' is not valid"),
        (##"{"layers": [{"text": "x", "box": [0, 0, 1, 1], "on": "to", "fade-in": 1}]}"##, "layers[0].fade-in: is for layers drawn over the frames"),
        (##"{"layers": [{"text": "x", "box": [0, 0, 1, 1], "size": 1e300}]}"##, "layers[0].size: expected pixels at 1080p 1…1000"),
        (##"{"layers": [{"text": "x", "box": [0, 0, 1, 1], "color": "red"}]}"##, "layers[0].color: expected a colour #RRGGBB"),
        (##"{"layers": [{"text": "x {oops", "box": [0, 0, 1, 1]}]}"##, "layers[0].text: '{oops' is not a placeholder"),
        (##"{"layers": [{"text": "x", "box": [0, 0, 1, 1], "colour": "#FFFFFF"}]}"##, "layers[0].colour: unknown field"),
        (##"{"layers": [{"text": "x", "box": [0, 0, 1, 1], "on": "over", "start": 2, "end": 1}]}"##, "layers[0].end: 1 is not after start (2)"),
        (##"{"layers": [{"image": "a.png", "box": [0, 0, 1, 1], "size": 20}]}"##, "layers[0].size: is for text layers"),
        (##"{"layers": []}"##, "holds no layers"),
        (##"{"5:4:3": []}"##, "'promo.json': 5:4:3: unknown field"),
        (##"{"layers": [{"text": "x", "box": [0, 0, 1, 1]},]}"##, "'promo.json': line 1, column"),
        (##"{"layers": [{"text": "a\u0007b", "box": [0, 0, 1, 1]}]}"##, "layer 1 holds the control character U+0007"),
        (##"{"safe-zone": "myspace", "layers": [{"text": "x", "box": [0, 0, 1, 1]}]}"##, "safe-zone: expected one of tiktok, reels, shorts, stories, none"),
    ])
    func refusals(_ json: String, _ expected: String) {
        do {
            _ = try Self.read(json)
            Issue.record("accepted: \(json)")
        } catch {
            #expect(error.description.contains(expected), "\(error.description)")
            #expect(!error.description.contains("\n") && !error.isMissing)
        }
    }

    @Test("placeholders are filled, braces escaped, and a missing value named")
    func placeholders() throws {
        #expect(try Placeholders.fill("{name} for {price}", values: ["name": "Flat White", "price": "2,49 €"]) == "Flat White for 2,49 €")
        #expect(try Placeholders.fill("{{literal}} {x}", values: ["x": "1"]) == "{literal} 1")
        #expect(throws: Placeholders.Failure.missing("price")) { try Placeholders.fill("{price}", values: [:]) }
        #expect(throws: Placeholders.Failure.malformed("}")) { try Placeholders.fill("a } b", values: [:]) }
        #expect(try Placeholders.names(in: "{a}{b}{a}") == ["a", "b"])
    }

    @Test("a box in pixels stays inside the frame and is never empty")
    func pixelBoxes() {
        let box = Layout.Box(x: 0.06, y: 0.76, width: 0.40, height: 0.09)
        #expect(box.pixels(frameWidth: 1920, frameHeight: 1080) == PixelBox(x: 115, y: 821, width: 768, height: 97))
        #expect(Layout.Box(x: 0.999, y: 0.999, width: 0.001, height: 0.001).pixels(frameWidth: 64, frameHeight: 36)
                == PixelBox(x: 63, y: 35, width: 1, height: 1))
    }

    @Test("safe zones name how far a box reaches into each interface area, scaled to the frame")
    func safeZones() {
        // TikTok at 1080x1920: 150 top, 480 bottom, 60 left, 150 right.
        let price = PixelBox(x: 65, y: 1459, width: 432, height: 173)
        let intrusions = SafeZone.tiktok.intrusions(of: price, width: 1080, height: 1920)
        #expect(intrusions.map(\.edge) == [.bottom] && intrusions.first?.pixels == 192)
        #expect(SafeZone.tiktok.intrusions(of: PixelBox(x: 100, y: 300, width: 700, height: 200), width: 1080, height: 1920).isEmpty)
        // Half the size, half the insets (rounded up).
        #expect(SafeZone.tiktok.inset(.bottom, width: 540, height: 960) == 240 && SafeZone.reels.inset(.top, width: 540, height: 960) == 125)
        #expect(SafeZone.Choice(parsing: "none") == SafeZone.Choice.none && SafeZone.Choice(parsing: "shorts") == .platform(.shorts))
        #expect(SafeZone.Choice(parsing: "tik tok") == nil)
    }

    @Test("an over layer's opacity follows its time and fades")
    func timing() {
        let timing = Layout.Timing(start: 1, end: 3, fadeIn: 0.5, fadeOut: 1)
        #expect(timing.opacity(at: 0.5, clip: 4) == 0 && timing.opacity(at: 1.25, clip: 4) == 0.5)
        #expect(timing.opacity(at: 1.5, clip: 4) == 1 && timing.opacity(at: 2.5, clip: 4) == 0.5 && timing.opacity(at: 3.5, clip: 4) == 0)
        #expect(Layout.Timing().opacity(at: 2, clip: 2) == 1)
    }
}
