// `--focus X,Y`: which part of a still a cover crop keeps. A square of four coloured quarters
// cut to a wide or a tall frame keeps the corner the focus names, from the flag, from a
// manifest's per-image "focus", and a focus outside 0…1 is refused with 64.

import Foundation
import SliceKit
import SliceMedia
import Testing

@Suite("slicevid make --focus")
struct FocusTests {
    static let red = RGBAColor(red: 255, green: 0, blue: 0), green = RGBAColor(red: 0, green: 255, blue: 0)
    static let blue = RGBAColor(red: 0, green: 0, blue: 255), white = RGBAColor(red: 255, green: 255, blue: 255)

    /// Stills in quarters (red top left, green top right, blue bottom left, white bottom right),
    /// twice as long as a frame's cut side: `wide.png` (288x144) for tall frames, `tall.png`
    /// (144x288) for wide ones, so a crop at either end shows one half only.
    static func quarters(in folder: String) throws {
        for (name, width, height) in [("wide", 288, 144), ("tall", 144, 288)] {
            var image = RGBAImage(width: width, height: height)
            for y in 0..<height {
                for x in 0..<width {
                    let c = y < height / 2 ? (x < width / 2 ? red : green) : (x < width / 2 ? blue : white)
                    let i = 4 * (y * width + x)
                    (image.pixels[i], image.pixels[i + 1], image.pixels[i + 2]) = (c.red, c.green, c.blue)
                }
            }
            try StillWriter.write(image, to: folder + "/\(name).png", format: .png)
        }
    }

    /// The colours at the four corners (inset by 3 pixels) of `frame`: TL, TR, BL, BR.
    static func corners(_ frame: PlanarImage) -> [RGBAColor] {
        let (w, h) = (frame.width, frame.height)
        return [(3, 3), (w - 4, 3), (3, h - 4), (w - 4, h - 4)].map { Pixels.color(frame, $0.0, $0.1) }
    }

    static func matches(_ got: [RGBAColor], _ expected: [RGBAColor]) -> Bool {
        zip(got, expected).allSatisfy { Pixels.isClose($0, $1, within: 6) }
    }

    @Test("--focus 0,0 keeps the top-left corner and 1,1 the bottom-right, in wide and tall frames",
          arguments: [("64x36", "0,0", [red, green, red, green]), ("64x36", "1,1", [blue, white, blue, white]),
                      ("36x64", "0,0", [red, red, blue, blue]), ("36x64", "bottom-right", [green, green, white, white]),
                      ("36x64", "center", [red, green, blue, white])])
    func corner(size: String, focus: String, expected: [RGBAColor]) throws {
        try withScratchFolder { folder in
            try Self.quarters(in: folder)
            let still = size == "64x36" ? "tall.png" : "wide.png"
            let result = try CLI.make(tinyClip(["--size": size]) + ["--from", still, "--to", still, "--focus", focus, "-o", "a.png"],
                                      in: folder)
            try #require(result.status == 0, "\(result)")
            let frame = try #require(try MediaReader.frames(path: folder + "/a.png", layout: .gbrp).first)
            #expect(Self.matches(Self.corners(frame), expected), "\(size) --focus \(focus): \(Self.corners(frame))")
        }
    }

    @Test("a focus outside 0…1 or not a point is refused with 64, saying what is accepted", arguments: ["1.5,0", "0.5", "up", "nan,0"])
    func refused(focus: String) throws {
        try withScratchFolder { folder in
            try Self.quarters(in: folder)
            let result = try CLI.make(tinyClip + ["--from", "wide.png", "--to", "wide.png", "--focus", focus, "-o", "a.png"], in: folder)
            #expect(result.status == 64 && result.stderrIsOneLine, "\(result)")
            #expect(result.stderr.contains("--focus") && result.stderr.contains("fractions 0…1"), "\(result)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/a.png"))
        }
    }

    @Test("a manifest's per-image focus: the same still shown by its top-left, then by its bottom-right corner")
    func manifestImages() throws {
        try withScratchFolder { folder in
            try Self.quarters(in: folder)
            try FileManager.default.createDirectory(atPath: folder + "/seq", withIntermediateDirectories: false)
            let job: [String: Any] = ["id": "story", "images": [["path": "wide.png", "focus": "0,0"], ["path": "wide.png", "focus": "1,1"]],
                                      "outputs": ["seq/%03d.png"]]
            let manifest: [String: Any] = ["defaults": ["size": "36x64", "fps": 10, "hold": 0.2, "duration": 0.3, "slices": 8], "jobs": [job]]
            try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: folder + "/m.json"))
            let result = try CLI.run(["batch", "m.json"], in: folder)
            try #require(result.status == 0, "\(result)")
            let first = try #require(try MediaReader.frames(path: folder + "/seq/000.png", layout: .gbrp).first)
            let last = try #require(try MediaReader.frames(path: folder + "/seq/" + String(format: "%03d.png", tinyClipFrames - 1),
                                                           layout: .gbrp).first)
            #expect(Self.matches(Self.corners(first), [Self.red, Self.red, Self.blue, Self.blue]), "\(Self.corners(first))")
            #expect(Self.matches(Self.corners(last), [Self.green, Self.green, Self.white, Self.white]), "\(Self.corners(last))")
        }
    }
}
