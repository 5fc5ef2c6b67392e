// The shipped presets at their own sizes and rates: the CLI tests render presets shrunk to a
// few pixels, so this is where a preset's real frame size meets the H.264 encoder.

import Foundation
import SliceKit
import SliceMedia
import Testing

@Suite struct PresetEncodingTests {
    /// Every distinct (size, rate) among the built-in presets.
    static let formats: [TransitionSpec] = Preset.builtIn.map(\.spec).reduce(into: []) { distinct, spec in
        if !distinct.contains(where: { $0.width == spec.width && $0.height == spec.height && $0.frameRate == spec.frameRate }) {
            distinct.append(spec)
        }
    }

    /// One frame at the preset's size and rate goes into an MP4 and comes back at that size
    /// and rate: sides even, rate one libx264 and MP4 take.
    @Test(arguments: formats)
    func presetSizeAndRateEncodeToMP4(spec: TransitionSpec) throws {
        let path = NSTemporaryDirectory() + "slicevid-preset-\(spec.width)x\(spec.height)-\(UUID().uuidString).mp4"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let frame = PlanarImage(width: spec.width, height: spec.height, layout: .yuv420p)
        frame.fill(RGBAColor(red: 40, green: 120, blue: 200))
        let writer = try VideoWriter(path: path, outputFormat: .mp4, width: spec.width, height: spec.height,
                                     frameRate: spec.frameRate, inputLayout: .yuv420p,
                                     settings: EncoderSettings(crf: 30, preset: "ultrafast"))
        try writer.write(frame)
        try writer.finish()
        let info = try MediaReader.info(path: path)
        #expect(info.codecName == "h264")
        #expect(info.width == spec.width && info.height == spec.height)
        #expect(abs(info.frameRate - spec.frameRate.value) < 0.01)
        #expect(info.frameCount == 1)
    }
}
