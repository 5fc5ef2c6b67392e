// How much a zlib stream inflates to, counted with zlib and a limit, keeping none of the bytes:
// what a compressed chunk (a PNG's iCCP or zTXt, a TIFF's Deflate strip) would cost before
// anything inflates it for real. A bomb costs at most the limit and a 64 KiB window to find out.

import CFFmpeg

/// What inflating one zlib stream up to a limit found.
enum Inflation: Equatable {
    /// The whole stream, ending where it says it ends (checksum right): this many bytes.
    case whole(Int)
    /// More bytes than the limit: inflating stopped there.
    case beyondLimit
    /// The data ran out before the stream's end, after this many bytes.
    case cutShort(Int)
    /// Not zlib data, or its checksum is wrong.
    case invalid

    /// The bytes inflated, counted up to the limit (a stream beyond it counts as `limit`);
    /// nil when the data is not zlib at all.
    func count(limit: Int) -> Int? {
        switch self {
        case .whole(let count), .cutShort(let count): count
        case .beyondLimit: limit
        case .invalid: nil
        }
    }

    /// Inflates `data` (a whole zlib stream, header to checksum) until it ends or more than
    /// `limit` bytes have come out.
    static func measure(_ data: UnsafeRawBufferPointer, limit: Int) -> Inflation {
        var given = false
        return measure(limit: limit) { buffer, capacity in
            guard !given, let base = data.baseAddress, data.count > 0 else { return 0 }
            given = true
            // zlib takes at most 4 GiB at a time; a PNG chunk is at most 2 GiB.
            let count = min(data.count, Int(UInt32.max))
            buffer.pointee = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: UInt8.self))
            return count
        }
    }

    /// Inflates the `count` bytes of `file` from `offset`, read 64 KiB at a time.
    static func measure(_ file: InputFile, offset: Int, count: Int, limit: Int) -> Inflation {
        let input = UnsafeMutablePointer<UInt8>.allocate(capacity: chunk)
        defer { input.deallocate() }
        var read = 0
        return measure(limit: limit) { buffer, _ in
            guard read < count else { return 0 }
            let bytes = file.bytes(at: Int64(offset + read), count: min(chunk, count - read))
            guard !bytes.isEmpty else { return 0 }
            bytes.withUnsafeBufferPointer { input.update(from: $0.baseAddress!, count: $0.count) }
            read += bytes.count
            buffer.pointee = input
            return bytes.count
        }
    }

    /// Output is inflated into (and input read in) pieces of this size.
    private static let chunk = 1 << 16

    /// The loop itself: `next` points its first argument at more input and says how many bytes
    /// it holds, 0 at the end of the data.
    private static func measure(limit: Int,
                                next: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, Int) -> Int) -> Inflation {
        var stream = z_stream()
        guard cffmpeg_inflate_init(&stream) == Z_OK else { return .invalid }
        defer { inflateEnd(&stream) }
        let output = UnsafeMutablePointer<UInt8>.allocate(capacity: chunk)
        defer { output.deallocate() }
        var ended = false
        while true {
            if stream.avail_in == 0 && !ended {
                var input: UnsafeMutablePointer<UInt8>?
                let count = next(&input, chunk)
                if count > 0 {
                    stream.next_in = input
                    stream.avail_in = UInt32(count)
                } else {
                    ended = true
                }
            }
            stream.next_out = output
            stream.avail_out = UInt32(chunk)
            let status = inflate(&stream, Z_NO_FLUSH)
            let total = Int(stream.total_out)
            if total > limit { return .beyondLimit }
            switch status {
            case Z_STREAM_END: return .whole(total)
            case Z_OK: continue
            // No progress is possible: without more input, the stream was cut short.
            case Z_BUF_ERROR where stream.avail_in == 0 && ended: return .cutShort(total)
            case Z_BUF_ERROR: continue
            default: return .invalid
            }
        }
    }
}
