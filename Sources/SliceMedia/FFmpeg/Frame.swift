// One AVFrame, owned: allocated in init and freed in deinit whatever path its user takes, as
// FFmpeg's doc/examples free theirs. Pictures decoded from stills, frames handed to encoders.

import CFFmpeg
import SliceKit

/// A picture as FFmpeg holds it: one `AVFrame` and the references to the buffers it uses.
///
/// Not thread-safe: one owner at a time, like the decoder or encoder it works with.
final class Frame {
    /// The frame itself, for FFmpeg calls inside this module only.
    let pointer: UnsafeMutablePointer<AVFrame>

    /// An empty frame, without buffers.
    /// - Throws: `MediaError` when out of memory.
    init(subject: String) throws(MediaError) {
        guard let frame = av_frame_alloc() else { throw MediaError.outOfMemory(subject: subject) }
        pointer = frame
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    /// The picture's size in pixels, and its layout in memory.
    var width: Int { Int(pointer.pointee.width) }
    var height: Int { Int(pointer.pointee.height) }
    var pixelFormat: AVPixelFormat { AVPixelFormat(rawValue: pointer.pointee.format) }

    /// Drops the frame's buffer references and resets its fields, for reuse.
    func unref() { av_frame_unref(pointer) }

    /// Whether the frame holds a picture (has a buffer).
    var hasBuffer: Bool { pointer.pointee.buf.0 != nil }

    /// Allocates buffers for the frame's format, width and height (set before).
    /// - Throws: `MediaError` when FFmpeg refuses the size or is out of memory.
    func allocateBuffer(subject: String) throws(MediaError) {
        try check(av_frame_get_buffer(pointer, 0), "av_frame_get_buffer", subject: subject)
    }

    /// The frame's first `count` planes as libswscale takes them. Read element by element:
    /// the C arrays arrive in Swift as tuples, which are not rebound to another type.
    func planes(count: Int = 4) -> PlanePointers {
        let data = pointer.pointee.data, linesize = pointer.pointee.linesize
        let pointers = [data.0, data.1, data.2, data.3, data.4, data.5, data.6, data.7]
        let strides = [linesize.0, linesize.1, linesize.2, linesize.3, linesize.4, linesize.5, linesize.6, linesize.7]
        let kept = max(0, min(count, pointers.count))
        return PlanePointers(data: Array(pointers.prefix(kept)), strides: Array(strides.prefix(kept)))
    }

    /// Points the frame's planes at `planes` (at most four), the rest at nothing.
    func setPlanes(_ planes: PlanePointers) {
        precondition(planes.data.count <= 4 && planes.data.count == planes.strides.count)
        func at(_ index: Int) -> (UnsafeMutablePointer<UInt8>?, Int32) {
            index < planes.data.count ? (planes.data[index], planes.strides[index]) : (nil, 0)
        }
        let (p0, s0) = at(0), (p1, s1) = at(1), (p2, s2) = at(2), (p3, s3) = at(3)
        pointer.pointee.data = (p0, p1, p2, p3, nil, nil, nil, nil)
        pointer.pointee.linesize = (s0, s1, s2, s3, 0, 0, 0, 0)
    }
}
