// A layout built in code, as a program embedding the library builds one, is checked exactly as
// a layout file is: the same checks, the same words, the same usage error (64), before any of
// its numbers is used. A NaN box crashed the host program.

import Foundation
import Slicevid
import Testing

@Suite("a layout built in code")
struct LayoutInCodeTests {
    /// A request for the demo cards at 64x36 with `layout`, writing nothing (a dry run's plan).
    private func plan(_ layout: Layout) throws(SlicevidError) -> MakePlan {
        var request: MakeRequest
        do {
            request = try MakeRequest(outputs: [try .file(NSTemporaryDirectory() + "never-\(UUID().uuidString).mp4")],
                                      spec: try LibraryTests.tinySpec(), encoder: EncoderSettings(), renderThreads: 1)
        } catch {
            fatalError("the request itself is valid: \(error)")
        }
        request.layout = layout
        return try Slicevid.plan(request)
    }

    private func layer(_ box: Layout.Box, _ text: Layout.Text = Layout.Text(template: "Flat White")) -> Layout.Layer {
        Layout.Layer(name: "layer 1", placement: .over(Layout.Timing()), box: box, content: .text(text))
    }

    @Test("a NaN, infinite or negative box is refused (64) as a file's would be, not a crash")
    func notANumber() {
        for value in [Double.nan, .infinity, -.infinity, -0.5, 2] {
            let layout = Layout(file: "promo (in code)", layers: [layer(Layout.Box(x: value, y: 0.1, width: 0.5, height: 0.5))])
            let error = #expect(throws: SlicevidError.self) { try plan(layout) }
            #expect(error?.category == .usage)
            #expect(error?.description == "'promo (in code)': layers[0].box: item 1 is not a number 0…1 (fractions of the frame)", "\(value)")
        }
    }

    @Test("every check a layout file gets, with the same words: a box past the frame, sizes, weights, text")
    func sameWordsAsAFile() throws {
        func fileError(_ json: String) -> String? {
            do {
                _ = try Layout(json: Data(json.utf8), file: "promo.json", folder: "/")
                return nil
            } catch {
                return error.description
            }
        }
        func codeError(_ layer: Layout.Layer) -> String? {
            do {
                _ = try plan(Layout(file: "promo.json", layers: [layer]))
                return nil
            } catch {
                return error.description
            }
        }
        var huge = Layout.Text(template: "Flat White")
        huge.size = .pixels(1e9)
        var weightless = Layout.Text(template: "Flat White")
        weightless.weight = 0
        var separated = Layout.Text(template: "Flat\u{2028}White")
        separated.size = .pixels(40)
        var blurred = Layout.Text(template: "Flat White")
        blurred.shadow = Layout.Text.Shadow(x: 0, y: .nan, blur: 4, color: RGBAColor(red: 0, green: 0, blue: 0))
        let cases: [(json: String, layer: Layout.Layer)] = [
            (#"{"layers": [{"text": "Flat White", "box": [0.6, 0.1, 0.5, 0.5]}]}"#, layer(Layout.Box(x: 0.6, y: 0.1, width: 0.5, height: 0.5))),
            (#"{"layers": [{"text": "Flat White", "size": 1e9, "box": [0.1, 0.1, 0.5, 0.5]}]}"#, layer(Layout.Box(x: 0.1, y: 0.1, width: 0.5, height: 0.5), huge)),
            (#"{"layers": [{"text": "Flat White", "weight": 0, "box": [0.1, 0.1, 0.5, 0.5]}]}"#, layer(Layout.Box(x: 0.1, y: 0.1, width: 0.5, height: 0.5), weightless)),
            (#"{"layers": [{"text": "Flat\u2028White", "size": 40, "box": [0.1, 0.1, 0.5, 0.5]}]}"#, layer(Layout.Box(x: 0.1, y: 0.1, width: 0.5, height: 0.5), separated)),
            (##"{"layers": [{"text": "Flat White", "shadow": {"x": 0, "y": 1000, "color": "#000000"}, "box": [0.1, 0.1, 0.5, 0.5]}]}"##,
             layer(Layout.Box(x: 0.1, y: 0.1, width: 0.5, height: 0.5), blurred)),
        ]
        for (json, layer) in cases {
            let fromFile = try #require(fileError(json), "\(json)")
            #expect(codeError(layer) == fromFile)
        }
        // The line separator is a control character like the others: a settings mistake (64),
        // naming the layer and the character.
        #expect(fileError(cases[3].json) == "'promo.json': layers[0].text: layer 1 holds the control character U+2028 LINE SEPARATOR; text takes \\n for a line break and no other control characters")
    }
}
