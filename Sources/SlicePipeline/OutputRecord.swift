// The sidecar beside each batch output (`.name.mp4.slicevid.json`): the fingerprint it was
// made from and its facts, so a re-run can skip it, and report its size and length, without
// opening the video.

import Foundation
import SliceKit
import SliceMedia

/// What a batch knows about an output it wrote.
public struct OutputRecord: Sendable, Equatable {
    /// `Fingerprint.value` of what produced the output.
    public var fingerprint: String
    /// Bytes on disk (for a PNG sequence, of all its frames).
    public var bytes: Int
    public var frames: Int
    /// Frames per second in text form (`30`, `30000/1001`).
    public var frameRate: String
    /// Length: frames ÷ fps.
    public var seconds: Double
    /// The fingerprint's lines, for a user asking why a job re-rendered.
    public var producedBy: [String]

    /// Describes an output just written.
    /// - Parameters:
    ///   - output: the output path (a pattern for PNG sequences).
    ///   - format: its format.
    ///   - fingerprint: what produced it.
    ///   - frames: frames written.
    ///   - frameRate: the video's frame rate.
    public init(output: String, format: OutputFormat, fingerprint: Fingerprint, frames: Int, frameRate: FrameRate) {
        self.fingerprint = fingerprint.value
        bytes = OutputRecord.bytesOnDisk(output: output, format: format, frames: frames) ?? 0
        self.frames = frames
        self.frameRate = frameRate.description
        seconds = Double(frames) / frameRate.value
        producedBy = fingerprint.lines
    }

    /// Where the sidecar of `output` lives: a hidden file beside it.
    public static func sidecarPath(for output: String) -> String {
        let url = URL(fileURLWithPath: output)
        return url.deletingLastPathComponent().path + "/." + url.lastPathComponent + ".slicevid.json"
    }

    /// The sidecar of `output`, or nil when there is none or it cannot be read.
    public static func read(for output: String) -> OutputRecord? {
        guard let data = FileManager.default.contents(atPath: sidecarPath(for: output)),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let fingerprint = object["fingerprint"] as? String,
              let bytes = (object["bytes"] as? NSNumber)?.intValue,
              let frames = (object["frames"] as? NSNumber)?.intValue,
              let frameRate = object["fps"] as? String,
              let seconds = (object["seconds"] as? NSNumber)?.doubleValue else { return nil }
        return OutputRecord(fingerprint: fingerprint, bytes: bytes, frames: frames, frameRate: frameRate, seconds: seconds,
                            producedBy: object["producedBy"] as? [String] ?? [])
    }

    private init(fingerprint: String, bytes: Int, frames: Int, frameRate: String, seconds: Double, producedBy: [String]) {
        self.fingerprint = fingerprint
        self.bytes = bytes
        self.frames = frames
        self.frameRate = frameRate
        self.seconds = seconds
        self.producedBy = producedBy
    }

    /// Writes the sidecar of `output` atomically (a temporary file renamed into place).
    /// - Throws: `SlicevidError(.outputFailed)` naming the sidecar.
    public func write(for output: String) throws(SlicevidError) {
        let path = OutputRecord.sidecarPath(for: output)
        let object: [String: Any] = ["fingerprint": fingerprint, "bytes": bytes, "frames": frames, "fps": frameRate,
                                     "seconds": seconds, "producedBy": producedBy]
        do {
            let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw SlicevidError(.outputFailed, "\(path): cannot record the output's fingerprint (\(error.localizedDescription))")
        }
    }

    /// Removes the sidecar of `output`, so an output replaced later is never vouched for by an
    /// older record.
    public static func remove(for output: String) {
        unlink(sidecarPath(for: output))
    }

    /// Whether `output` is still what this record describes: present with the recorded size
    /// (every frame, for a sequence). Cheap: a `stat` per file, no decoding.
    public func describesDisk(output: String, format: OutputFormat) -> Bool {
        OutputRecord.bytesOnDisk(output: output, format: format, frames: frames) == bytes
    }

    /// The size of `output` on disk, or nil when it (or any frame of a sequence) is missing.
    static func bytesOnDisk(output: String, format: OutputFormat, frames: Int) -> Int? {
        let files = format.isSequence ? (0..<frames).map { OutputTarget.frameName(pattern: output, index: $0) } : [output]
        var total = 0
        for file in files {
            var info = stat()
            guard stat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
            total += Int(info.st_size)
        }
        return total
    }
}
