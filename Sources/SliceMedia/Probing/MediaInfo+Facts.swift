// `probe`'s words for what MediaReader read back: the container by the name people use (an MP4
// and a QuickTime file share libavformat's demuxer, told apart by the major brand; WebM and
// Matroska by the EBML DocType), the profile in lower case, the frame rate as a fraction.

import Foundation
import SliceKit

extension MediaInfo {
    /// The facts of the file at `path`, which this info was read from.
    package func facts(path: String) -> MediaFacts {
        let timeless = ["image2", "image2pipe"].contains(containerName) || containerName.hasSuffix("_pipe")
        var rate = timeless ? nil : averageFrameRate
        if codecName == "gif" {
            let centiseconds = Int((duration * 100).rounded())
            rate = centiseconds > 0 && frameCount > 0 ? FrameRate(frameCount * 100, centiseconds) : nil
        }
        var facts = MediaFacts(container: container(path: path, timeless: timeless), codec: codecName, profile: profileName?.lowercased(),
                          // GIF decodes to BGRA, but a GIF file always holds palette indices.
                          pixelFormat: codecName == "gif" ? "pal8" : pixelFormat, alpha: hasAlpha, width: width, height: height,
                          frameRate: rate, frames: frameCount, duration: timeless ? nil : duration,
                          colors: (colorPrimaries, colorTransfer, colorSpace, colorRange))
        facts.audio = audio
        return facts
    }

    /// The container's short name.
    private func container(path: String, timeless: Bool) -> String {
        switch containerName {
        case "mov,mp4,m4a,3gp,3g2,mj2": return ContainerHeader.majorBrand(path: path) == "qt  " ? "mov" : "mp4"
        case "matroska,webm": return ContainerHeader.matroskaDocType(path: path) == "webm" ? "webm" : "mkv"
        case "yuv4mpegpipe": return "y4m"
        default:
            guard timeless else { return containerName }
            return codecName == "mjpeg" ? "jpeg" : codecName
        }
    }
}

/// The first bytes of a file, where MP4 and Matroska say what kind they are.
enum ContainerHeader {
    /// The major brand of an ISO media file (`isom`, `qt  `): bytes 8–11, after the `ftyp` box's
    /// size and type.
    static func majorBrand(path: String) -> String? {
        guard let bytes = head(path, count: 12), bytes.count == 12, bytes[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        return String(decoding: bytes[8..<12], as: UTF8.self)
    }

    /// The DocType of a Matroska file (`webm`, `matroska`): the string after the EBML header's
    /// DocType element ID 0x4282 and its one-byte size.
    static func matroskaDocType(path: String) -> String? {
        guard let bytes = head(path, count: 64), bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) else { return nil }
        for index in 4..<(bytes.count - 3) where bytes[index] == 0x42 && bytes[index + 1] == 0x82 && bytes[index + 2] & 0x80 != 0 {
            let length = Int(bytes[index + 2] & 0x7F), start = index + 3
            guard start + length <= bytes.count else { return nil }
            return String(decoding: bytes[start..<(start + length)], as: UTF8.self)
        }
        return nil
    }

    private static func head(_ path: String, count: Int) -> [UInt8]? {
        guard let file = try? InputFile(path: path) else { return nil }
        return file.bytes(at: 0, count: count)
    }
}
