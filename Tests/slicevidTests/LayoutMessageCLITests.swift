// A layout's mistakes as the command line says them: every control character in a layer's text is
// a settings mistake (64) naming the layer and the character; a size a frame size pushes past
// what text can be is said in rounded pixels with the limit; a logo without a size says so; plan
// lines name layers by their names with lengths rounded; `batch --plan`, `--check` and
// `make --dry-run` refuse the same layout; and one mistake shared by many jobs is one line.

import Foundation
import SliceKit
import Testing

@Suite("layout messages on the command line", .timeLimit(.minutes(10)))
struct LayoutMessageCLITests {
    /// Two stills and `layout` as promo.json.
    private func campaign(_ layout: String, in folder: String) throws {
        _ = try Still.write(RGBAImage(width: 160, height: 90, color: RGBAColor(red: 128, green: 128, blue: 128)), "a.png", in: folder)
        _ = try Still.write(RGBAImage(width: 160, height: 90, color: RGBAColor(red: 30, green: 60, blue: 220)), "b.png", in: folder)
        try writeFile(folder + "/promo.json", Data(layout.utf8))
    }

    private let tiny = ["--fps", "10", "--hold", "0.2", "--duration", "0.3", "--slices", "8"]

    /// A manifest of jobs `ids` at 320x180, each with the layout and the variable `name`.
    private func manifest(_ ids: [String], name: String = "Flat White", in folder: String) throws {
        let jobs = ids.map { id in
            ["id": id, "images": ["a.png", "b.png"], "outputs": ["out/\(id).mp4"], "vars": ["name": name]] as [String: Any]
        }
        let top: [String: Any] = ["defaults": ["layout": "promo.json", "size": "320x180", "fps": 10, "hold": 0.2, "duration": 0.3, "slices": 8,
                                               "encoder-preset": "ultrafast"], "jobs": jobs]
        try writeFile(folder + "/campaign.json", try JSONSerialization.data(withJSONObject: top))
    }

    @Test("U+2028 in a layer's text is 64 like any other control character, naming the layer and the character")
    func lineSeparator() throws {
        try withScratchFolder { folder in
            for (character, name) in [("\\u2028", "U+2028 LINE SEPARATOR"), ("\\u0007", "U+0007")] {
                try campaign(#"{"layers": [{"name": "head", "text": "Flat"# + character + #"White", "box": [0.1, 0.1, 0.8, 0.3]}]}"#, in: folder)
                let run = try CLI.make(["--from", "a.png", "--to", "b.png", "--layout", "promo.json", "-o", "x.mp4", "--size", "320x180"] + tiny, in: folder)
                #expect(run.status == 64, "\(run)")
                #expect(run.stderrIsOneLine)
                #expect(run.stderr.contains("'promo.json': layers[0].text: layer 'head' holds the control character \(name); "), "\(run.stderr)")
            }
        }
    }

    @Test("a size a big frame pushes past what text can be is refused in rounded pixels, with the limit and the layer")
    func sizeAtFrameSize() throws {
        try withScratchFolder { folder in
            try campaign(#"{"layers": [{"name": "price", "text": "2,49", "size": 1000, "box": [0.1, 0.1, 0.8, 0.3]}]}"#, in: folder)
            let run = try CLI.make(["--from", "a.png", "--to", "b.png", "--layout", "promo.json", "-o", "x.mp4", "--size", "8192x8192",
                                    "--dry-run"] + tiny, in: folder)
            #expect(run.status == 64, "\(run)")
            #expect(run.stderr.hasSuffix("--layout 'promo.json': layer 'price': size 1000 (pixels at 1080p) is 7585.2 px at 8192x8192, more than the 4096 px a text can be; give it a size of at most 540 for this frame size\n"), "\(run.stderr)")
        }
    }

    @Test("an SVG logo of 0x0 is said to have no size, not to be too large")
    func logoWithoutSize() throws {
        try withScratchFolder { folder in
            try writeFile(folder + "/logo.svg", Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"></svg>"#.utf8))
            try campaign(#"{"layers": [{"name": "logo", "image": "logo.svg", "box": [0.1, 0.1, 0.3, 0.3]}]}"#, in: folder)
            let run = try CLI.make(["--from", "a.png", "--to", "b.png", "--layout", "promo.json", "-o", "x.mp4", "--size", "320x180"] + tiny, in: folder)
            #expect(run.status == 65, "\(run)")
            #expect(run.stderr.contains("logo.svg: has no size: it declares a 0x0 picture"), "\(run.stderr)")
            #expect(!run.stderr.contains("larger than"))
        }
    }

    @Test("batch --plan, --check and make --dry-run refuse a name with a character no font has, as the run does")
    func planCheckAndDryRunAgree() throws {
        try withScratchFolder { folder in
            try campaign(#"{"layers": [{"name": "title", "text": "{name}", "box": [0.1, 0.1, 0.8, 0.3]}]}"#, in: folder)
            try manifest(["a"], name: "Flat White 😀", in: folder)
            let refusal = "layer 'title': none of its fonts can draw U+1F600 GRINNING FACE"
            let plan = try CLI.run(["batch", "campaign.json", "--plan"], in: folder)
            #expect(plan.status == 2 && plan.stderr.contains("job 'a': will fail: layout '") && plan.stderr.contains(refusal), "\(plan)")
            let check = try CLI.run(["batch", "campaign.json", "--check"], in: folder)
            #expect(check.status == 2 && check.stderr.contains(refusal), "\(check)")
            let dry = try CLI.make(["--from", "a.png", "--to", "b.png", "--layout", "promo.json", "--var", "name=Flat White 😀", "-o", "x.mp4",
                                    "--size", "320x180", "--dry-run"] + tiny, in: folder)
            #expect(dry.status == 65 && dry.stderr.contains(refusal), "\(dry)")
            let run = try CLI.run(["batch", "campaign.json", "-q"], in: folder)
            #expect(run.status == 2 && run.stderr.contains(refusal), "\(run)")
        }
    }

    @Test("one layout mistake shared by many jobs is one line naming how many jobs and the first of them")
    func grouped() throws {
        try withScratchFolder { folder in
            try campaign(#"{"layers": [{"name": "title", "text": "{name} 😀", "box": [0.1, 0.1, 0.8, 0.3]}]}"#, in: folder)
            try manifest(["a", "b", "c", "d", "e"], in: folder)
            for flags in [["--check"], ["--plan"], ["-q"]] {
                let run = try CLI.run(["batch", "campaign.json"] + flags, in: folder)
                let lines = run.stderr.split(separator: "\n").filter { $0.contains("GRINNING FACE") }
                #expect(run.status == 2 && lines.count == 1, "\(flags): \(run.stderr)")
                #expect(lines.first?.contains("5 jobs ('a', 'b', 'c' and 2 more): ") == true, "\(flags): \(run.stderr)")
            }
        }
    }

    @Test("plan lines name a layer by its name and give its lengths to a tenth of a pixel")
    func planLines() throws {
        try withScratchFolder { folder in
            try campaign(#"{"layers": [{"name": "price", "text": "{name}", "size": 28, "box": [0.1, 0.1, 0.8, 0.3]}, {"text": "Legal", "size": 20, "box": [0.1, 0.6, 0.8, 0.2]}]}"#, in: folder)
            try manifest(["a"], in: folder)
            let first = try CLI.run(["batch", "campaign.json", "-q"], in: folder)
            #expect(first.status == 0, "\(first)")
            try campaign(#"{"layers": [{"name": "price", "text": "{name}", "size": 31, "box": [0.1, 0.1, 0.8, 0.3]}, {"text": "Legal", "size": 22, "box": [0.1, 0.6, 0.8, 0.2]}]}"#, in: folder)
            let plan = try CLI.run(["batch", "campaign.json", "--plan"], in: folder)
            // 28, 31, 20 and 22 px at 1080p are 4.666…, 5.166…, 3.333… and 3.666… px at 320x180 (a sixth).
            #expect(plan.stderr.contains("job 'a': will render: layer 'price' size 4.7 → 5.2; layer 2 size 3.3 → 3.7"), "\(plan.stderr)")
        }
    }
}
