// Several safe zones as a user meets them: a 9:16 master posted to TikTok, Reels and Shorts keeps
// its layers clear of all three interfaces; a layer inside any one is refused naming that zone;
// adding a zone is a change a re-run sees.

import Foundation
import Testing

@Suite(.serialized, .timeLimit(.minutes(10))) struct SafeZonesCLITests {
    /// At 216x384 (1080x1920 / 5) the insets are TikTok 30/96/12/30, Reels 50/134/13/13,
    /// Shorts 28/96/10/36 (top, bottom, left, right): a box from x 21.6 to 172.8 is clear of
    /// all three; one reaching x 183.6 is inside Shorts' right edge (180) alone.
    static let clear = "[0.1, 0.4, 0.7, 0.1]"
    static let intoShorts = "[0.1, 0.4, 0.75, 0.1]"

    static func layout(zones: String, box: String) -> String {
        #"{"safe-zone": \#(zones), "layers": [{"on": "over", "image": "s2.png", "box": \#(box)}]}"#
    }

    static func campaign(_ folder: CampaignFolder) throws -> String {
        try folder.campaign(jobs: [["id": "story", "layout": "story.json", "images": ["s0.png", "s1.png"], "outputs": ["out/story.mp4"]]],
                            defaults: ["size": "216x384", "fps": 10, "hold": 0.2, "duration": 0.3, "slices": 8, "encoder-preset": "ultrafast"])
    }

    @Test("each zone of a list is checked, the refusal names the zone, and adding a zone re-renders")
    func eachZoneChecked() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try Self.campaign(folder)
        try folder.write("story.json", Self.layout(zones: #"["tiktok"]"#, box: Self.clear))
        let first = try BatchCLI.run(["batch", manifest], in: folder.path)
        #expect(first.status == 0, "\(first.stderr)")

        // Two more zones the layer is clear of: the fingerprint holds them, so the job renders again.
        try folder.write("story.json", Self.layout(zones: #"["tiktok", "reels", "shorts"]"#, box: Self.clear))
        let plan = try BatchCLI.run(["batch", manifest, "--plan"], in: folder.path)
        #expect(plan.status == 0 && plan.stderr.contains("job 'story': will render"), "\(plan.stderr)")
        #expect(try BatchCLI.run(["batch", manifest], in: folder.path).status == 0)
        let again = try BatchCLI.run(["batch", manifest, "--plan"], in: folder.path)
        #expect(again.stderr.contains("job 'story': up to date"), "\(again.stderr)")
        // The order they are written in decides only which a refusal names: not a change.
        try folder.write("story.json", Self.layout(zones: #"["shorts", "tiktok", "reels"]"#, box: Self.clear))
        let reordered = try BatchCLI.run(["batch", manifest, "--plan"], in: folder.path)
        #expect(reordered.stderr.contains("job 'story': up to date"), "\(reordered.stderr)")

        // A box clear of TikTok and Reels but inside Shorts' buttons: refused, naming Shorts,
        // however the zones are ordered — the last zone is checked as the first is.
        for zones in [#"["tiktok", "reels", "shorts"]"#, #"["shorts"]"#] {
            try folder.write("story.json", Self.layout(zones: zones, box: Self.intoShorts))
            let check = try BatchCLI.run(["batch", manifest, "--check"], in: folder.path)
            #expect(check.status == 2, "\(check.stderr)")
            #expect(check.stderr.contains("reaches 4 px into YouTube Shorts' right interface (the like, comment and share buttons, 36 px at 216x384)"),
                    "\(check.stderr)")
        }
        try folder.write("story.json", Self.layout(zones: #"["tiktok", "reels"]"#, box: Self.intoShorts))
        #expect(try BatchCLI.run(["batch", manifest, "--check"], in: folder.path).status == 0)
        // A variant keeps its own list.
        try folder.write("story.json", #"{"safe-zone": "none", "9:16": {"safe-zone": ["reels", "shorts"], "layers": [{"on": "over", "image": "s2.png", "box": \#(Self.intoShorts)}]}}"#)
        let variant = try BatchCLI.run(["batch", manifest, "--check"], in: folder.path)
        #expect(variant.status == 2 && variant.stderr.contains("YouTube Shorts' right interface"), "\(variant.stderr)")
    }

    @Test("a list that is not one is one line naming the field and what it takes", arguments: [
        (#"[]"#, "safe-zone: expected one of tiktok, reels, shorts, stories, none, or a list of platforms"),
        (#"["reels", "reels"]"#, "(each once)"),
        (#""tiktok,reels""#, "safe-zone: expected one of"),
    ])
    func badLists(_ zones: String, _ words: String) throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        let manifest = try Self.campaign(folder)
        try folder.write("story.json", Self.layout(zones: zones, box: Self.clear))
        let check = try BatchCLI.run(["batch", manifest, "--check"], in: folder.path)
        #expect(check.status == 64 && check.stderr.split(separator: "\n").count == 1 && check.stderr.contains(words), "\(check.stderr)")
    }

    @Test("make takes several zones separated by commas, and --dry-run names them")
    func makeFlag() throws {
        let folder = try CampaignFolder()
        defer { folder.remove() }
        try folder.write("story.json", Self.layout(zones: #""none""#, box: Self.intoShorts))
        let flags = ["--from", "s0.png", "--to", "s1.png", "--layout", "story.json", "--size", "216x384", "--dry-run", "-o", "out.mp4"]
        let clear = try CLI.make(flags + ["--safe-zone", "tiktok,reels"], in: folder.path)
        #expect(clear.status == 0 && clear.stderr.contains("clear of TikTok's and Instagram Reels' interfaces"), "\(clear)")
        let inside = try CLI.make(flags + ["--safe-zone", "tiktok,shorts"], in: folder.path)
        #expect(inside.status == 64 && inside.stderrIsOneLine && inside.stderr.contains("YouTube Shorts' right interface")
                && inside.stderr.contains("move it clear of all 2 (tiktok, shorts), or choose another --safe-zone"), "\(inside)")
        let twice = try CLI.make(flags + ["--safe-zone", "shorts,shorts"], in: folder.path)
        #expect(twice.status == 64 && twice.stderr.contains("--safe-zone: 'shorts,shorts' is not valid"), "\(twice)")
    }
}
