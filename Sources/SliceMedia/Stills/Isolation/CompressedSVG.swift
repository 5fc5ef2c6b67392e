// An SVGZ inflated by slicevid itself, with a limit, before librsvg sees it: librsvg would
// inflate any gzip stream to its end (2 MB of gzip can hold 2 GB of SVG text). Runs in the
// decode helper; the text goes into a memory file of the helper's own, read like any still.

import CFFmpeg
import CPlatform
import Glibc

/// SVG text, and the gzip streams it comes in.
enum CompressedSVG {
    /// The most SVG text slicevid reads, plain or inflated: far more than any drawing needs
    /// (a detailed map export is a few MiB), and little enough that a bomb costs nothing.
    static let largestText = 32 << 20

    /// How the limit reads in messages.
    static let limitDescription = "\(largestText >> 20) MiB"

    /// Whether `file` starts like a gzip stream.
    static func isGzip(_ file: InputFile) -> Bool {
        file.bytes(at: 0, count: 2) == [0x1F, 0x8B]
    }

    /// The SVG text `file` (a gzip stream) holds, inflated into a memory file and opened as a
    /// still under the same name.
    /// - Throws: `MediaError(.inputInvalid)` naming the file: a damaged stream, more than
    ///   `largestText` of text, or text that is not SVG (another gzip stream inside, say).
    static func inflated(_ file: InputFile) throws(MediaError) -> InputFile {
        let path = file.path
        func damaged(_ reason: String) -> MediaError {
            MediaError(.inputInvalid, subject: path, message: "is truncated or corrupt (gzip: \(reason))")
        }
        let memory = cplatform_memory_file("slicevid-svg")
        guard memory >= 0 else { throw MediaError.outOfMemory(subject: path) }
        let text: InputFile
        do {
            text = try InputFile(descriptor: memory, path: path)
        } catch {
            close(memory)
            throw error
        }
        var stream = z_stream()
        guard cffmpeg_inflate_init_gzip(&stream) == Z_OK else { throw MediaError.outOfMemory(subject: path) }
        defer { inflateEnd(&stream) }
        var input = [UInt8](repeating: 0, count: 64 << 10)
        var output = [UInt8](repeating: 0, count: 256 << 10)
        var offset: Int64 = 0, written = 0
        while true {
            let chunk = file.bytes(at: offset, count: input.count)
            guard !chunk.isEmpty else { throw damaged("the stream ends early") }
            offset += Int64(chunk.count)
            input.replaceSubrange(0..<chunk.count, with: chunk)
            var status = Z_OK
            try input.withUnsafeMutableBufferPointer { (source) throws(MediaError) in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(chunk.count)
                repeat {
                    let produced = output.withUnsafeMutableBufferPointer { target -> Int in
                        stream.next_out = target.baseAddress
                        stream.avail_out = UInt32(target.count)
                        status = inflate(&stream, Z_NO_FLUSH)
                        return target.count - Int(stream.avail_out)
                    }
                    guard status == Z_OK || status == Z_STREAM_END || (status == Z_BUF_ERROR && produced == 0) else {
                        throw damaged(stream.msg.map { String(cString: $0) } ?? "error \(status)")
                    }
                    // Stopped at the limit: nothing past it is ever inflated.
                    guard written + produced <= largestText else {
                        throw MediaError(.inputInvalid, subject: path,
                                         message: "is an SVGZ whose SVG text inflates to more than \(limitDescription), more than slicevid reads")
                    }
                    guard output.withUnsafeBytes({ pwrite(memory, $0.baseAddress!, produced, off_t(written)) }) == produced else {
                        throw MediaError.outOfMemory(subject: path)
                    }
                    written += produced
                } while status != Z_STREAM_END && stream.avail_out == 0
            }
            if status == Z_STREAM_END { break }
        }
        guard StillHeader.isSVG(text) else {
            throw MediaError(.inputInvalid, subject: path, message: "is gzip-compressed but holds no SVG (an SVGZ must inflate to SVG text)")
        }
        return text
    }

    /// Refuses plain SVG text longer than `largestText`, before any of it is parsed.
    static func checkSize(_ file: InputFile) throws(MediaError) {
        guard file.size > Int64(largestText) else { return }
        throw MediaError(.inputInvalid, subject: file.path,
                         message: "is \(file.size >> 20) MiB of SVG text, more than the \(limitDescription) slicevid reads")
    }
}
