// libjxl writes its own multi-line diagnostics for a damaged JPEG XL straight to descriptor 2.
// Decoding one must leave standard error empty: the refusal is the caller's one line, and
// libjxl's reason reaches it through FFmpeg's log instead. libjxl runs in a decode helper, whose
// standard error never reaches slicevid's.

import Foundation
import SliceKit
@testable import SliceMedia
import Testing

@Suite(.timeLimit(.minutes(10))) struct JPEGXLDiagnosticsTests {
    @Test func aOneByteJPEGXLIsRefusedNotSpunOn() throws {
        // image2 calls a `.jxl` file JPEG XL by its name; libjxl spun forever on one byte.
        try withTemporaryDirectory { dir in
            for byte: UInt8 in [0x00, 0xFF] {
                let path = dir + "/one-\(byte).jxl"
                try DamagedStills.write([byte], to: path)
                #expect(throws: MediaError.self) { try MediaReader.info(path: path) }
                #expect(throws: MediaError.self) {
                    try StillDecoder.load(path: path, width: 8, height: 8, fit: .contain, background: RGBAColor(red: 0, green: 0, blue: 0))
                }
            }
        }
    }

    @Test(.enabled(if: StillEncoding.has("libjxl"))) func aDamagedJPEGXLWritesNothingToStandardError() async {
        await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            // As slicevid runs: FFmpeg's own log through its callback, quiet, and JPEG XL decoded
            // in a decode helper, whose standard error is a pipe slicevid reads.
            FFmpegLog.configure(verbose: false)
            useBuiltDecodeHelper()
            let path = NSTemporaryDirectory() + "slicevid-jxl-\(getpid()).jxl"
            defer { unlink(path) }
            var image = RGBAImage(width: 96, height: 64)
            for index in stride(from: 0, to: image.pixels.count, by: 4) {
                image.pixels[index] = UInt8(index % 251)
                image.pixels[index + 1] = UInt8(index / 4 % 97)
                image.pixels[index + 3] = 255
            }
            try! StillEncoding.jpegXL(image, to: path)
            // Every seventh byte past the header inverted: libjxl finds the data invalid.
            var bytes = try! DamagedStills.read(path)
            for offset in stride(from: 40, to: bytes.count, by: 7) { bytes[offset] ^= 0x5A }
            try! DamagedStills.write(bytes, to: path)
            // Markers around the decodes: the exit-test machinery writes bytes of its own.
            FileHandle.standardError.write(Data("<decoding>".utf8))
            defer { FileHandle.standardError.write(Data("</decoding>".utf8)) }
            do throws(MediaError) {
                _ = try StillDecoder.load(path: path, width: 32, height: 32, fit: .contain, background: RGBAColor(red: 0, green: 0, blue: 0))
                exit(3)
            } catch {
                guard error.kind == .inputInvalid else { exit(4) }
            }
            // What probe reads (its stream info decodes the picture too).
            do throws(MediaError) {
                _ = try MediaReader.info(path: path)
                exit(5)
            } catch {
                guard error.kind == .inputInvalid else { exit(6) }
            }
        }.map { result in
            let text = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(text.contains("<decoding></decoding>"), "libjxl wrote to stderr: \(text)")
        }
    }
}
