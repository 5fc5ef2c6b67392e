// Readable by construction, as a layout file says it: scrims, the contrast rules, styles and a
// brand file a layout imports, numbers kept with their units; and the contrast measure itself
// (WCAG 2 luminance, a percentile of the box, not its mean).

import Foundation
import SliceKit
import Testing

@Suite struct LayoutReadableTests {
    static func read(_ json: String, folder: String = "/campaign") throws(LayoutError) -> Layout {
        try Layout(json: Data(json.utf8), file: "promo.json", folder: folder)
    }

    static func text(_ layout: Layout, _ index: Int = 0) -> Layout.Text? {
        if case .text(let text) = layout.layers[index].content { return text }
        return nil
    }

    @Test func scrimsReadAsWritten() throws {
        let layout = try Self.read("""
            {"layers": [{"text": "a", "box": [0, 0.5, 1, 0.5], "scrim": {"shape": "gradient", "from": "top", "color": "#102030", "opacity": 0.6}},
                        {"text": "b", "box": [0, 0, 1, 0.2], "scrim": {}}]}
            """)
        #expect(Self.text(layout)?.scrim == Layout.Text.Scrim(shape: .gradient, from: .top, color: RGBAColor(hex: "#102030")!, opacity: 0.6))
        #expect(Self.text(layout, 1)?.scrim == Layout.Text.Scrim(shape: .box, color: .black, opacity: 0.5))
    }

    @Test("a scrim's coverage: even for a box, falling from its side to none for a gradient")
    func scrimCoverage() {
        let box = Layout.Text.Scrim(opacity: 0.6)
        #expect(box.coverage(x: 0, y: 0, width: 10, height: 10) == 0.6 && box.coverage(x: 9, y: 9, width: 10, height: 10) == 0.6)
        let gradient = Layout.Text.Scrim(shape: .gradient, from: .bottom, opacity: 0.8)
        #expect(abs(gradient.coverage(x: 3, y: 9, width: 10, height: 10) - 0.76) < 1e-12)
        #expect(abs(gradient.coverage(x: 3, y: 0, width: 10, height: 10) - 0.04) < 1e-12)
        let left = Layout.Text.Scrim(shape: .gradient, from: .left, opacity: 1)
        #expect(left.coverage(x: 0, y: 5, width: 4, height: 10) == 0.875 && left.coverage(x: 3, y: 5, width: 4, height: 10) == 0.125)
        // The picture holds the coverage as alpha, colour premultiplied.
        let picture = Layout.Text.Scrim(color: RGBAColor(red: 255, green: 0, blue: 0), opacity: 0.5).picture(width: 2, height: 2)
        #expect(picture.row(3, 1)[1] == 32768 && picture.row(0, 1)[1] == 32768 && picture.row(1, 0)[0] == 0)
    }

    @Test("every mistake is one line naming the key and what is accepted", arguments: [
        (#"{"text": "a", "box": [0, 0, 1, 1], "scrim": {"opacity": 2}}"#, "layers[0].scrim.opacity: expected a number 0…1"),
        (#"{"text": "a", "box": [0, 0, 1, 1], "scrim": {"from": "top"}}"#, "layers[0].scrim.from: is for \"shape\": \"gradient\""),
        (#"{"text": "a", "box": [0, 0, 1, 1], "scrim": {"shape": "oval"}}"#, "layers[0].scrim.shape: expected one of box, gradient"),
        (#"{"text": "a", "box": [0, 0, 1, 1], "scrim": {"blur": 1}}"#, "layers[0].scrim.blur: unknown field; accepted: shape, from, color, opacity"),
        (#"{"image": "logo.png", "box": [0, 0, 1, 1], "scrim": {}}"#, "layers[0].scrim: is for text layers"),
        (#"{"text": "a", "box": [0, 0, 1, 1], "style": "headline"}"#, "layers[0].style: no styles are defined"),
        (#"{"text": "a", "box": [0, 0, 1, 1], "color": "@ink"}"#, "layers[0].color: '@ink' names a brand colour, but no brand file"),
        (#"{"image": "@brand", "box": [0, 0, 1, 1]}"#, "layers[0].image: '@brand' is not valid; a brand's picture is \"@logo\""),
    ])
    func layerMistakes(_ layer: String, _ words: String) {
        #expect(throws: LayoutError.self) { try Self.read(#"{"layers": ["# + layer + "]}") }
        do {
            _ = try Self.read(#"{"layers": ["# + layer + "]}")
        } catch {
            #expect(error.description.hasPrefix("'promo.json': ") && error.description.contains(words) && !error.isMissing, "\(error)")
        }
    }

    @Test("the contrast rules and the smallest size: defaults, as written, and refused out of range")
    func readabilityRules() throws {
        #expect(try Self.read(#"{"layers": [{"text": "a", "box": [0, 0, 1, 1]}]}"#).readability == Layout.Readability())
        let rules = try Self.read(#"{"contrast": {"minimum": 7, "large": 4.5, "large-size": 40, "refuse": true}, "smallest-size": 30, "layers": [{"text": "a", "box": [0, 0, 1, 1]}]}"#).readability
        #expect(rules == Layout.Readability(minimum: 7, large: 4.5, largeSize: 40, refuse: true, smallestSize: 30))
        // Large from 40 px, bold large from 30.
        #expect(rules.minimum(size: 39, weight: 400) == 7 && rules.minimum(size: 40, weight: 400) == 4.5 && rules.minimum(size: 30, weight: 700) == 4.5)
        for (json, words) in [(#""contrast": {"minimum": 30}"#, "contrast.minimum: expected a number 1…21"),
                              (#""contrast": {"refuse": 1}"#, "contrast.refuse: expected true or false"),
                              (#""smallest-size": 0"#, "smallest-size: expected a number 1…1000")] {
            do {
                _ = try Self.read("{\(json), \"layers\": [{\"text\": \"a\", \"box\": [0, 0, 1, 1]}]}")
                Issue.record("\(json) was taken")
            } catch {
                #expect(error.description.contains(words), "\(error)")
            }
        }
        // A layout built in code is held to the same ranges.
        var layout = Layout(file: "code", layers: [Layout.Layer(name: "layer 1", placement: .over(Layout.Timing()), box: Layout.Box(x: 0, y: 0, width: 1, height: 1),
                                                                content: .text(Layout.Text(template: "a", scrim: Layout.Text.Scrim(opacity: .nan))))])
        #expect(throws: LayoutError.self) { try layout.check() }
        layout.layers[0].content = .text(Layout.Text(template: "a"))
        layout.readability.minimum = 0.5
        #expect(throws: LayoutError.self) { try layout.check() }
    }

    @Test("a style gives its look to the layers that name it; a layer's own keys win")
    func styles() throws {
        let layout = try Self.read("""
            {"styles": {"headline": {"color": "#FFCC00", "weight": 700, "plate": "#000000", "scrim": {"opacity": 0.4}}},
             "layers": [{"text": "a", "box": [0, 0, 1, 0.5], "style": "headline"},
                        {"text": "b", "box": [0, 0.5, 1, 0.5], "style": "headline", "color": "#FFFFFF"}]}
            """)
        #expect(Self.text(layout)?.color == RGBAColor(hex: "#FFCC00") && Self.text(layout)?.weight == 700)
        #expect(Self.text(layout)?.plate?.color == .black && Self.text(layout)?.scrim?.opacity == 0.4)
        #expect(Self.text(layout, 1)?.color == RGBAColor(hex: "#FFFFFF") && Self.text(layout, 1)?.weight == 700)
        // A style is a look: where a layer is and what it says are its own.
        for (style, words) in [(#"{"box": [0, 0, 1, 1]}"#, "styles.headline.box: unknown field"),
                               (#"{"color": "red"}"#, "styles.headline.color: expected a colour"),
                               ("[]", "styles.headline: expected an object")] {
            do {
                _ = try Self.read(#"{"styles": {"headline": "# + style + #"}, "layers": [{"text": "a", "box": [0, 0, 1, 1]}]}"#)
                Issue.record("\(style) was taken")
            } catch {
                #expect(error.description.contains(words), "\(error)")
            }
        }
        do {
            _ = try Self.read(#"{"styles": {"headline": {}}, "layers": [{"text": "a", "box": [0, 0, 1, 1], "style": "body"}]}"#)
            Issue.record("an unknown style was taken")
        } catch {
            #expect(error.description.contains("layers[0].style: expected one of headline"), "\(error)")
        }
    }

    @Test("a brand file gives its fonts, colours, styles and logo to every layout that imports it")
    func brandFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("brand-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/brand", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("""
            {"fonts": ["Brand.otf"], "logo": "logo.png", "colors": {"ink": "#1A1A1A", "red": "#E30613"},
             "styles": {"price": {"color": "@ink", "plate": "@red", "fonts": ["Price.otf"]}}}
            """.utf8).write(to: URL(fileURLWithPath: folder + "/brand/brand.json"))
        let layout = try Self.read("""
            {"brand": "brand/brand.json", "fonts": ["Own.otf"], "styles": {"legal": {"color": "@ink", "size": 20}},
             "layers": [{"text": "{price}", "box": [0, 0, 1, 0.5], "style": "price"},
                        {"text": "VAT", "box": [0, 0.5, 1, 0.2], "style": "legal"},
                        {"image": "@logo", "box": [0, 0.8, 0.2, 0.2]}]}
            """, folder: folder)
        #expect(layout.fonts == [folder + "/Own.otf", folder + "/brand/Brand.otf"])
        #expect(layout.brand == folder + "/brand/brand.json")
        #expect(Self.text(layout)?.color == RGBAColor(hex: "#1A1A1A") && Self.text(layout)?.plate?.color == RGBAColor(hex: "#E30613"))
        #expect(Self.text(layout)?.fonts == [folder + "/brand/Price.otf"], "a brand style's fonts are relative to the brand file")
        #expect(Self.text(layout, 1)?.size == .pixels(20) && Self.text(layout, 1)?.color == RGBAColor(hex: "#1A1A1A"))
        #expect(layout.layers[2].content == .image(folder + "/brand/logo.png"))
        // A missing brand file is a missing input (66); a bad one names the brand file and the place.
        do {
            _ = try Self.read(#"{"brand": "nope.json", "layers": [{"text": "a", "box": [0, 0, 1, 1]}]}"#, folder: folder)
            Issue.record("a missing brand was taken")
        } catch {
            #expect(error.isMissing && error.description.contains("brand 'nope.json'"), "\(error)")
        }
        try Data(#"{"colors": {"ink": "black"}}"#.utf8).write(to: URL(fileURLWithPath: folder + "/bad.json"))
        do {
            _ = try Self.read(#"{"brand": "bad.json", "layers": [{"text": "a", "box": [0, 0, 1, 1]}]}"#, folder: folder)
            Issue.record("a bad brand was taken")
        } catch {
            #expect(!error.isMissing && error.description.hasPrefix("'bad.json': colors.ink: expected a colour"), "\(error)")
        }
    }

    @Test("a number and its unit are joined by a no-break space; nothing else changes", arguments: [
        ("Höhe 20 cm", "Höhe 20\u{00A0}cm"),
        ("1,5 kg und 250 ml.", "1,5\u{00A0}kg und 250\u{00A0}ml."),
        ("nur € 20, 30 %", "nur €\u{00A0}20, 30\u{00A0}%"),
        ("20 °C", "20\u{00A0}°C"),
        ("Top 20 Ideas for 2025", "Top 20 Ideas for 2025"),
        ("20cm and 5 cmx", "20cm and 5 cmx"),
        ("cm 20", "cm 20"),
    ])
    func numbersKeepTheirUnits(_ text: String, _ joined: String) {
        #expect(Layout.joiningNumbersAndUnits(text) == joined)
    }
}

@Suite struct ContrastMeasureTests {
    static let white = RGBAColor(red: 255, green: 255, blue: 255)

    static func target(_ text: RGBAColor, scrim: Layout.Text.Scrim? = nil, plate: RGBAColor? = nil) -> Contrast.Target {
        Contrast.Target(layer: "layer 'name'", box: PixelBox(x: 0, y: 0, width: 100, height: 10), text: text, scrim: scrim, plate: plate,
                        minimum: 4.5, frame: 3)
    }

    /// A 100 × 10 black picture with its first `white` columns white.
    static func picture(whiteColumns white: Int) -> RGBAImage {
        var image = RGBAImage(width: 100, height: 10, color: .black)
        for y in 0..<10 { for x in 0..<white { for c in 0..<3 { image.pixels[4 * (y * 100 + x) + c] = 255 } } }
        return image
    }

    static func measure(_ target: Contrast.Target, on image: RGBAImage) -> Double {
        let probe = ContrastProbe(targets: [target])
        probe.measure(image)
        return probe.measures![0].ratio
    }

    @Test("WCAG 2: black on white is 21:1, a colour on itself 1:1, #777 on white about 4.48:1")
    func ratios() {
        #expect(Contrast.ratio(Contrast.luminance(Self.white), Contrast.luminance(.black)) == 21)
        #expect(Contrast.ratio(0.3, 0.3) == 1)
        let grey = Contrast.ratio(Contrast.luminance(RGBAColor(red: 0x77, green: 0x77, blue: 0x77)), 1)
        #expect(abs(grey - 4.48) < 0.01, "\(grey)")
    }

    @Test("a white cup under white text is caught: the measure is what 95 % of the box reach, not the mean")
    func percentileNotMean() {
        // 3 % of the box white: the rest is black, so white text reads at 21:1 over 95 %.
        #expect(Self.measure(Self.target(Self.white), on: Self.picture(whiteColumns: 3)) == 21)
        // 10 % white (the mean is still far above 4.5:1): caught at 1:1.
        #expect(Self.measure(Self.target(Self.white), on: Self.picture(whiteColumns: 10)) == 1)
    }

    @Test("a scrim and a plate are what the text is read against")
    func scrimAndPlateCount() {
        let allWhite = Self.picture(whiteColumns: 100)
        #expect(Self.measure(Self.target(Self.white), on: allWhite) == 1)
        // A black box scrim at 0.8 leaves white at 20 %: luminance 0.033, contrast 1.05 / 0.083 ≈ 12.6.
        let shaded = Self.measure(Self.target(Self.white, scrim: Layout.Text.Scrim(opacity: 0.8)), on: allWhite)
        #expect(shaded >= 12 && shaded < 13.5, "\(shaded)")
        // An opaque plate replaces what is under it.
        #expect(Self.measure(Self.target(Self.white, plate: .black), on: allWhite) == 21)
        // Measured once: a second picture does not change what the probe holds.
        let probe = ContrastProbe(targets: [Self.target(Self.white)])
        probe.measure(allWhite)
        probe.measure(Self.picture(whiteColumns: 0))
        #expect(probe.measures?.first?.ratio == 1 && probe.measures?.first?.isBelowMinimum == true)
        #expect(probe.measures?.first?.summary.contains("layer 'name': contrast 1.00:1") == true)
        #expect(probe.measures?.first?.summary.contains("at frame 3") == true)
    }
}
