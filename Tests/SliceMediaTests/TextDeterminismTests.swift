// The same layer gives the same bytes: twice in a row, from many threads at once, and in another
// process whose fontconfig setup offers other fonts (and rules that would change every glyph),
// another locale and language list, or a fontconfig sysroot. The child process is this test
// binary again, running `childRender` alone.

import Foundation
import SliceKit
import Synchronization
import Testing
@testable import SliceMedia

@Suite("text layers: the same bytes everywhere")
struct TextDeterminismTests {
    /// Layers in every default script, with the decorations, at auto and fixed sizes.
    static let layers: [TextLayer] = {
        var german = TextLayer(name: "name", text: "Flat White – Größe ä € 2,49", width: 700, height: 140, size: .auto(min: 10, max: 120))
        german.plate = .init(color: RGBAColor(red: 227, green: 6, blue: 19), padding: 14, radius: 18)
        german.outline = .init(width: 2, color: RGBAColor(red: 0, green: 0, blue: 60))
        german.shadow = .init(x: 3, y: 3, blur: 2.5, color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 150))
        // Urdu digits: a language list naming Urdu would pick their Urdu forms.
        let arabic = TextLayer(name: "arabic", text: "سلام ۴۵۶ بالعالم", width: 700, height: 140, size: .auto(min: 10, max: 120), alignment: .start)
        // A German layer with Arabic in it: German's tag does not cover Arabic script, so that run
        // must not take its language from the environment either.
        let german2 = TextLayer(name: "german", text: "Preis: ۴۵۶ € (Größe)", width: 700, height: 140, size: .pixels(48), language: "de")
        let hebrew = TextLayer(name: "hebrew", text: "שלום עולם", width: 500, height: 120, size: .pixels(56), alignment: .start)
        let hindi = TextLayer(name: "hindi", text: "नमस्ते दुनिया क्ष", width: 700, height: 140, size: .auto(min: 10, max: 120))
        let thai = TextLayer(name: "thai", text: "สวัสดีชาวโลก", width: 600, height: 140, size: .auto(min: 10, max: 120))
        // Han characters: a language list naming Chinese would change which forms are asked for.
        var japanese = TextLayer(name: "japanese", text: "東京の直営店、骨・角", width: 700, height: 200, size: .auto(min: 10, max: 120))
        japanese.maxLines = 2
        var bold = TextLayer(name: "bold", text: "Prices incl. VAT", width: 500, height: 80, size: .pixels(40),
                             fonts: [TestFonts.notoSansBold], alignment: .end)
        bold.weight = 700
        return [german, arabic, german2, hebrew, hindi, thai, japanese, bold]
    }()

    /// Every layer's samples, one after another, as little-endian bytes.
    static func renderAll() throws -> Data {
        var data = Data()
        for layer in layers {
            let samples = try TextRenderer.render(layer).picture.samples
            samples.withUnsafeBytes { data.append(contentsOf: $0) }
        }
        return data
    }

    /// Set in the child process: where it writes its renders.
    static let childOutput = ProcessInfo.processInfo.environment["SLICEVID_TEXT_CHILD_OUTPUT"]

    @Test("(child process) renders the layers into the file the parent names",
          .enabled(if: childOutput != nil, "runs only as TextDeterminismTests' child"))
    func childRender() throws {
        try Self.renderAll().write(to: URL(fileURLWithPath: try #require(Self.childOutput)))
    }

    /// Runs `childRender` in a new process of this test binary with `environment` (and
    /// nothing else) and returns what it rendered.
    static func renderInChild(environment: [String: String], folder: String) throws -> Data {
        let output = folder + "/child-\(UUID().uuidString).bin"
        let child = Process()
        child.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        child.arguments = ["--testing-library", "swift-testing", "--filter", "TextDeterminismTests/childRender"]
        child.environment = environment.merging(["SLICEVID_TEXT_CHILD_OUTPUT": output, "PATH": "/usr/bin:/bin"]) { $1 }
        let log = folder + "/child-\(UUID().uuidString).log"
        FileManager.default.createFile(atPath: log, contents: nil)
        let logHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        defer { try? logHandle.close() }
        child.standardOutput = logHandle
        child.standardError = logHandle
        try child.run()
        child.waitUntilExit()
        if child.terminationStatus != 0 {
            let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            Issue.record("the child's test run failed: \(said.split(separator: "\n").filter { $0.contains("✘") }.prefix(3).joined(separator: " | "))")
        }
        return try Data(contentsOf: URL(fileURLWithPath: output))
    }

    @Test("the same layer renders to the same bytes twice")
    func twice() throws {
        #expect(try Self.renderAll() == Self.renderAll())
    }

    @Test("another process with other fonts and hostile fontconfig rules, another locale and language list: the same bytes")
    func otherFontconfigEnvironment() throws {
        try withTemporaryDirectory { folder in
            // DejaVu offered under every name the layers use, hinting, subpixel colour, no
            // antialiasing and synthetic bold forced: if any of it reached the engine, the
            // glyphs would change.
            let rules = ["Noto Sans", "Noto Sans Arabic", "Noto Sans Hebrew", "Noto Sans Devanagari", "Noto Sans Thai", "IPAexGothic"]
                .map { "<alias binding=\"strong\"><family>\($0)</family><prefer><family>DejaVu Sans</family></prefer></alias>" }
                .joined()
            try """
            <?xml version="1.0"?>
            <fontconfig>
              <dir>\(TestFonts.dejaVuFolder)</dir>
              <cachedir>\(folder)/cache</cachedir>
              \(rules)
              <match target="font">
                <edit name="hinting" mode="assign"><bool>true</bool></edit>
                <edit name="hintstyle" mode="assign"><const>hintfull</const></edit>
                <edit name="autohint" mode="assign"><bool>true</bool></edit>
                <edit name="antialias" mode="assign"><bool>false</bool></edit>
                <edit name="rgba" mode="assign"><const>rgb</const></edit>
                <edit name="embolden" mode="assign"><bool>true</bool></edit>
              </match>
            </fontconfig>
            """.write(toFile: folder + "/fonts.conf", atomically: true, encoding: .utf8)
            let hostile = ["FONTCONFIG_FILE": folder + "/fonts.conf", "HOME": folder, "XDG_CACHE_HOME": folder + "/cache",
                           "LANG": "ur_PK.UTF-8", "LANGUAGE": "ur:fa:zh_CN", "PANGO_LANGUAGE": "ur:zh-cn", "FC_LANG": "zh-cn"]
            let child = try Self.renderInChild(environment: hostile, folder: folder)
            let here = try Self.renderAll()
            #expect(child.count == here.count && child == here, "the child's bytes differ")
        }
    }

    @Test("another process with a fontconfig sysroot set: the same bytes")
    func fontconfigSysroot() throws {
        try withTemporaryDirectory { folder in
            // Under FONTCONFIG_SYSROOT=/usr fontconfig would record /usr/share/fonts/… as /share/fonts/….
            let child = try Self.renderInChild(environment: ["FONTCONFIG_SYSROOT": "/usr", "HOME": folder], folder: folder)
            #expect(child == (try Self.renderAll()), "the child's bytes differ")
        }
    }

    @Test("many threads rendering at once: each gets the bytes a lone render gets, and only one is ever inside Pango")
    func concurrentRenders() throws {
        let alone = try Self.layers.map { try TextRenderer.render($0).picture.samples }
        let results = Mutex<[Int: [UInt16]]>([:])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4 * Self.layers.count) { index in
            do {
                let samples = try TextRenderer.render(Self.layers[index % Self.layers.count]).picture.samples
                results.withLock { $0[index] = samples }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        let rendered = results.withLock { $0 }
        for index in 0..<(4 * Self.layers.count) {
            #expect(rendered[index] == alone[index % Self.layers.count], "render \(index) differs")
        }
        #expect(TextEngine.mostAtOnce == 1, "\(TextEngine.mostAtOnce) threads were inside Pango at once")
    }
}
