// Test material for sequence and batch tests: a scratch folder, small distinct PNG stills made
// with StillWriter, and manifests written from dictionaries. A target of its own, so the render's
// tests and the campaign modules' tests share it.

import Foundation
import SliceKit
import SliceMedia
import SlicePipeline

/// A scratch folder; tests remove it with `defer { scratch.remove() }`.
package struct Scratch {
    package let path: String

    package init() throws {
        path = NSTemporaryDirectory() + "slicevid-test-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    package func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// Writes a 64x36 PNG still, distinct for each `index` (a gradient tinted per image).
    @discardableResult
    package func still(_ name: String, index: Int) throws -> String {
        var image = RGBAImage(width: 64, height: 36)
        for y in 0..<36 {
            for x in 0..<64 {
                let i = 4 * (y * 64 + x)
                image.pixels[i] = UInt8((index * 90 + x * 2) % 256)
                image.pixels[i + 1] = UInt8((index * 40 + y * 5) % 256)
                image.pixels[i + 2] = UInt8((255 - index * 60) & 0xFF)
            }
        }
        let file = path + "/" + name
        try StillWriter.write(image, to: file, format: .png)
        return file
    }

    /// Writes `object` as JSON to `name` and returns its path.
    @discardableResult
    package func json(_ name: String, _ object: Any) throws -> String {
        let file = path + "/" + name
        try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted]).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// Writes raw text to `name` and returns its path.
    @discardableResult
    package func text(_ name: String, _ text: String) throws -> String {
        let file = path + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// Names of the files in a subfolder (hidden ones included), sorted.
    package func files(in folder: String = "") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path + "/" + folder)) ?? []).sorted()
    }
}

/// Tiny, fast clip settings for manifests: 64x36, 10 fps, 0.2 s hold, 0.3 s transition.
package var tinyDefaults: [String: Any] {
    ["size": "64x36", "fps": 10, "hold": 0.2, "duration": 0.3, "slices": 8, "encoder-preset": "ultrafast"]
}

/// Resolves built-in presets, and preset files by reading them, as the CLI does.
package func testPresets(_ value: String) throws(SlicevidError) -> Preset {
    if value.hasPrefix("/") {
        guard let data = FileManager.default.contents(atPath: value) else {
            throw SlicevidError(.usage, "\(value): no such preset file, or it cannot be read")
        }
        do throws(PresetError) {
            return try Preset(json: data, name: "file", source: value)
        } catch {
            throw SlicevidError(.usage, error.text)
        }
    }
    guard let preset = Preset.builtIn.first(where: { $0.name == value }) else {
        throw SlicevidError(.usage, "\(value): unknown preset")
    }
    return preset
}
