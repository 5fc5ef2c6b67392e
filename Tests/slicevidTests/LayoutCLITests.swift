// Cards and overlays as a user meets them: text printed on a still flies apart with its strips and
// is whole when it lands, a logo over the frames stays put on every frame, the bytes do not change
// with -j or with the machine's fonts, and every refusal is one line, its code, nothing written.

import Foundation
import SliceKit
import SliceMedia
import Testing

@Suite("layouts on the command line", .timeLimit(.minutes(10)))
struct LayoutCLITests {
    static let plate = RGBAColor(red: 0xE3, green: 0x06, blue: 0x13)
    static let green = RGBAColor(red: 20, green: 200, blue: 40)

    /// Two stills (grey and blue, no red or green in them), a solid green logo, and a layout with
    /// the issue's layers: the price on a red plate on the destination, the logo over the frames.
    static func campaign(in folder: String) throws {
        _ = try Still.write(RGBAImage(width: 160, height: 90, color: RGBAColor(red: 128, green: 128, blue: 128)), "intro.png", in: folder)
        _ = try Still.write(RGBAImage(width: 160, height: 90, color: RGBAColor(red: 30, green: 60, blue: 220)), "photo.png", in: folder)
        _ = try Still.write(RGBAImage(width: 20, height: 20, color: green), "logo.png", in: folder)
        try writeFile(folder + "/promo.json", Data("""
            {"layers": [
              {"on": "to", "text": "{name}", "box": [0.06, 0.55, 0.88, 0.2], "size": "auto", "color": "#FFFFFF"},
              {"on": "to", "name": "price", "text": "{price}", "box": [0.06, 0.76, 0.40, 0.16], "color": "#FFFFFF", "plate": "#E30613"},
              {"on": "over", "image": "logo.png", "box": [0.8, 0.05, 0.15, 0.2]}
            ]}
            """.utf8))
    }

    static let flags = ["--from", "intro.png", "--to", "photo.png", "--layout", "promo.json", "--var", "name=Flat White",
                        "--var", "price=2,49 €", "--size", "320x180", "--fps", "10", "--hold", "0.3", "--duration", "0.6", "--slices", "16"]

    /// Pixels of `frame` within `tolerance` of `color`, as (x, y).
    static func pixels(of color: RGBAColor, in frame: PlanarImage, tolerance: Int = 40) -> [(x: Int, y: Int)] {
        var found: [(Int, Int)] = []
        for y in 0..<frame.height {
            for x in 0..<frame.width where Pixels.isClose(Pixels.color(frame, x, y), color, within: tolerance) { found.append((x, y)) }
        }
        return found
    }

    @Test("the price flies with the destination's strips and lands whole; the logo stays put on every frame")
    func cardsAndOverlays() throws {
        try withScratchFolder { folder in
            try Self.campaign(in: folder)
            let run = try CLI.make(Self.flags + ["-o", "frames/%03d.png", "-j", "2"], in: folder)
            #expect(run.status == 0, "\(run)")
            let frames = try MediaReader.frames(path: folder + "/frames/%03d.png", layout: .gbrp)
            try #require(frames.count == 10)
            // Landed: the plate is inside the price's box (x 19…147, y 137…165 of 320x180), whole.
            let landed = Self.pixels(of: Self.plate, in: frames[9])
            #expect(landed.count > 300, "\(landed.count) plate pixels")
            #expect(landed.allSatisfy { (19...147).contains($0.x) && (136...166).contains($0.y) }, "plate outside its box")
            // Mid-flight: the plate's strips sit at different heights, some outside the box.
            let flying = Self.pixels(of: Self.plate, in: frames[5])
            #expect(flying.contains { !(136...166).contains($0.y) }, "the price did not move with the strips")
            // Before the destination arrives, there is no price at all.
            #expect(Self.pixels(of: Self.plate, in: frames[0]).isEmpty)
            // The logo: the same pixels at the same place on every frame (box 256…304, 9…45).
            let logo = Self.pixels(of: Self.green, in: frames[0], tolerance: 10)
            #expect(logo.count > 300 && logo.allSatisfy { (256...304).contains($0.x) && (9...45).contains($0.y) })
            for frame in frames { #expect(Self.pixels(of: Self.green, in: frame, tolerance: 10).map { [$0.x, $0.y] } == logo.map { [$0.x, $0.y] }) }
        }
    }

    @Test("a GIF keeps the logo's colour: its palette is chosen with the over layers on the stills")
    func gifPaletteHasTheOverLayersColours() throws {
        try withScratchFolder { folder in
            try Self.campaign(in: folder)
            // No colour of the stills or the card's layers is near the logo's green, so a palette
            // made from them alone dithers the logo into grey, blue, red and white.
            let run = try CLI.make(Self.flags + ["-o", "promo.gif", "-o", "frames/%03d.png"], in: folder)
            #expect(run.status == 0, "\(run)")
            let gif = try MediaReader.frames(path: folder + "/promo.gif", layout: .gbrp)
            let rendered = try MediaReader.frames(path: folder + "/frames/%03d.png", layout: .gbrp)
            try #require(!gif.isEmpty && gif[0].width == rendered[0].width)
            // Inside the logo (its box's centre, clear of its edges): the rendered green on every
            // frame, the same pixels every time.
            let inside = (268...292).flatMap { x in (15...39).map { y in (x, y) } }
            let green = Pixels.color(rendered[0], 280, 27)
            #expect(Pixels.isClose(green, Self.green, within: 10), "\(green)")
            for (index, frame) in gif.enumerated() {
                let off = inside.filter { !Pixels.isClose(Pixels.color(frame, $0.0, $0.1), green, within: 3) }.count
                #expect(off == 0, "GIF frame \(index): \(off) of \(inside.count) logo pixels are not its green")
            }
        }
    }

    @Test("the bytes are the same with -j 1 and -j 2, and when the machine's fonts are configured otherwise")
    func determinism() throws {
        try withScratchFolder { folder in
            try Self.campaign(in: folder)
            #expect(try CLI.make(Self.flags + ["-o", "one.mp4", "-o", "one.png", "-j", "1"], in: folder).status == 0)
            #expect(try CLI.make(Self.flags + ["-o", "two.mp4", "-o", "two.png", "-j", "2"], in: folder).status == 0)
            // A machine whose fontconfig prefers another font for every family.
            try writeFile(folder + "/fonts.conf", Data("""
                <?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">
                <fontconfig><dir>/usr/share/fonts</dir>
                <match target="pattern"><edit name="family" mode="prepend" binding="strong"><string>DejaVu Serif</string></edit></match>
                <match target="font"><edit name="hinting" mode="assign"><bool>true</bool></edit><edit name="rgba" mode="assign"><const>rgb</const></edit></match>
                </fontconfig>
                """.utf8))
            let other = try CLI.run(["make"] + Self.flags + ["-o", "three.mp4", "-o", "three.png"], in: folder,
                                    environment: ["FONTCONFIG_FILE": folder + "/fonts.conf", "LANGUAGE": "ur", "PANGO_LANGUAGE": "ur"])
            #expect(other.status == 0, "\(other)")
            for name in ["two", "three"] {
                for ext in ["mp4", "png"] {
                    #expect(FileManager.default.contents(atPath: "\(folder)/one.\(ext)") == FileManager.default.contents(atPath: "\(folder)/\(name).\(ext)"),
                            "\(name).\(ext) differs")
                }
            }
        }
    }

    @Test("every refusal is one line with its code, and nothing is written", arguments: [
        (["--var", "price=1"], 64, "{name} has no value; give one with --var name=VALUE"),
        (["--var", "name=Flat White 😀", "--var", "price=1"], 65, "U+1F600"),
        (["--var", "name=" + String(repeating: "Supercalifragilistic ", count: 40), "--var", "price=1"], 65, "does not fit"),
        (["--var", "name=a", "--var", "price=1", "--layout", "broken-font.json"], 65, "is not a font"),
        (["--var", "name=a", "--var", "price=1", "--safe-zone", "tiktok"], 64, "TikTok's"),
        (["--var", "name=a", "--var", "price=1", "--var", "name=b"], 64, "--var name: given twice"),
    ])
    func refusals(_ extra: [String], _ code: Int32, _ words: String) throws {
        try withScratchFolder { folder in
            try Self.campaign(in: folder)
            try writeFile(folder + "/bad.ttf", Data("not a font at all".utf8))
            try writeFile(folder + "/broken-font.json", Data(#"{"fonts": ["bad.ttf"], "layers": [{"on": "to", "text": "x", "box": [0, 0, 1, 1]}]}"#.utf8))
            let base = Self.flags.filter { !$0.hasPrefix("name=") && !$0.hasPrefix("price=") }
            var flags = base
            // Drop the two --var pairs of the common flags; each case gives its own.
            while let index = flags.firstIndex(of: "--var") { flags.removeSubrange(index...(index + 1)) }
            if extra.contains("--layout") { flags.removeSubrange(flags.firstIndex(of: "--layout")!...(flags.firstIndex(of: "--layout")! + 1)) }
            let before = FolderSnapshot(folder)
            for dry in [false, true] {
                let run = try CLI.make(flags + extra + ["-o", "out/promo.mp4"] + (dry ? ["--dry-run"] : []), in: folder)
                #expect(run.status == code && run.stderrIsOneLine && run.stderr.contains(words), "\(run)")
                #expect(FolderSnapshot(folder) == before, "something was written")
            }
        }
    }

    @Test("a preset names its layout relative to itself: make and a manifest's job use it, --layout overrides it, --dry-run names it")
    func presetLayout() throws {
        try withScratchFolder { folder in
            try FileManager.default.createDirectory(atPath: folder + "/brand", withIntermediateDirectories: false)
            try Self.campaign(in: folder + "/brand")
            try writeFile(folder + "/brand/house.json", Data(#"{"description": "the house look", "slices": 16, "layout": "promo.json"}"#.utf8))
            try writeFile(folder + "/brand/plain.json", Data(#"{"layers": [{"on": "over", "image": "logo.png", "box": [0, 0, 0.1, 0.1]}]}"#.utf8))
            let common = ["--from", "brand/intro.png", "--to", "brand/photo.png", "--var", "name=Flat White", "--var", "price=2,49 €",
                          "--size", "320x180", "--fps", "10", "--hold", "0.3", "--duration", "0.6"]
            // The preset's layout, found beside the preset though the run starts elsewhere.
            #expect(try CLI.make(common + ["--preset", "brand/house.json", "-o", "preset.mp4"], in: folder).status == 0)
            #expect(try CLI.make(common + ["--slices", "16", "--layout", "brand/promo.json", "-o", "flag.mp4"], in: folder).status == 0)
            #expect(try CLI.make(common + ["--slices", "16", "-o", "none.mp4"], in: folder).status == 0)
            let bytes = { (name: String) in FileManager.default.contents(atPath: folder + "/" + name) }
            #expect(bytes("preset.mp4") != nil && bytes("preset.mp4") == bytes("flag.mp4"), "the preset's layout was not used")
            #expect(bytes("preset.mp4") != bytes("none.mp4"))
            // --layout wins over the preset's.
            #expect(try CLI.make(common + ["--preset", "brand/house.json", "--layout", "brand/plain.json", "-o", "over.mp4"], in: folder).status == 0)
            #expect(try CLI.make(common + ["--slices", "16", "--layout", "brand/plain.json", "-o", "plain.mp4"], in: folder).status == 0)
            #expect(bytes("over.mp4") != nil && bytes("over.mp4") == bytes("plain.mp4"), "--layout did not override the preset's")
            // The dry run says which layout and what it holds.
            let dry = try CLI.make(common + ["--preset", "brand/house.json", "-o", "dry.mp4", "--dry-run"], in: folder)
            #expect(dry.status == 0 && dry.stderr.contains("with layout ") && dry.stderr.contains("brand/promo.json")
                    && dry.stderr.contains("2 layers on cards, 1 over the frames"), "\(dry)")
            // A manifest's job with that preset and no layout of its own takes the preset's.
            try writeFile(folder + "/campaign.json", Data("""
                {"jobs": [{"id": "flat-white", "preset": "brand/house.json", "images": ["brand/intro.png", "brand/photo.png"],
                           "vars": {"name": "Flat White", "price": "2,49 €"}, "size": "320x180", "fps": 10, "hold": 0.3,
                           "duration": 0.6, "outputs": "batch.mp4"}]}
                """.utf8))
            let batch = try CLI.run(["batch", "campaign.json"], in: folder)
            #expect(batch.status == 0, "\(batch)")
            #expect(bytes("batch.mp4") != nil && bytes("batch.mp4") == bytes("preset.mp4"), "the manifest's job did not take the preset's layout")
            // A preset whose layout is missing is refused naming it, before anything renders.
            try writeFile(folder + "/brand/lost.json", Data(#"{"layout": "gone.json"}"#.utf8))
            let lost = try CLI.make(common + ["--preset", "brand/lost.json", "-o", "lost.mp4"], in: folder)
            #expect(lost.status == 66 && lost.stderrIsOneLine && lost.stderr.contains("gone.json"), "\(lost)")
            #expect(bytes("lost.mp4") == nil)
        }
    }

    @Test("a feed's columns are the layout's variables, and a job's vars win over them")
    func feedColumnsFillTheLayout() throws {
        try withScratchFolder { folder in
            try Self.campaign(in: folder)
            try writeFile(folder + "/products.csv", Data("sku,name,price\r\nA,Flat White,\"2,49 €\"\r\nB,Cortado,\"2,19 €\"\r\n".utf8))
            try writeFile(folder + "/campaign.json", Data("""
                {"defaults": {"layout": "promo.json", "size": "320x180", "fps": 10, "hold": 0.3, "duration": 0.6, "slices": 16},
                 "jobs": [{"id": "{sku}", "rows": {"file": "products.csv", "key": "sku"}, "images": ["intro.png", "photo.png"],
                           "outputs": "out/{id}.mp4"},
                          {"id": "{sku}-sale", "rows": {"file": "products.csv", "key": "sku"}, "images": ["intro.png", "photo.png"],
                           "vars": {"price": "1,99 €"}, "outputs": "out/{id}.mp4"}]}
                """.utf8))
            let batch = try CLI.run(["batch", "campaign.json"], in: folder)
            #expect(batch.status == 0, "\(batch)")
            let common = Array(Self.flags.prefix { $0 != "--var" }) + ["--size", "320x180", "--fps", "10", "--hold", "0.3", "--duration", "0.6", "--slices", "16"]
            for (name, price, output) in [("Flat White", "2,49 €", "A"), ("Cortado", "2,19 €", "B"), ("Cortado", "1,99 €", "B-sale")] {
                let run = try CLI.make(common + ["--var", "name=\(name)", "--var", "price=\(price)", "-o", "\(output).mp4"], in: folder)
                #expect(run.status == 0, "\(run)")
                let made = FileManager.default.contents(atPath: "\(folder)/\(output).mp4")
                #expect(made != nil && made == FileManager.default.contents(atPath: "\(folder)/out/\(output).mp4"), "out/\(output).mp4 is not \(name) at \(price)")
            }
        }
    }

    @Test("a layout reads right in German, Hebrew, Arabic, Hindi and Japanese with the default fonts")
    func scripts() throws {
        try withScratchFolder { folder in
            try Self.campaign(in: folder)
            for (index, text) in ["Süße Straße – 2,49 €", "שלום עולם", "مرحبا بالعالم", "नमस्ते दुनिया", "こんにちは世界"].enumerated() {
                let run = try CLI.make(Self.flags.map { $0 == "name=Flat White" ? "name=\(text)" : $0 } + ["-o", "s\(index).png"], in: folder)
                #expect(run.status == 0, "\(text): \(run)")
            }
        }
    }
}
