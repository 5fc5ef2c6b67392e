// The helper's picture without a copy: the sealed memory file mapped read-only and wrapped as
// an FFmpeg buffer whose free callback unmaps it, so every frame that shares it (crops,
// views) keeps the mapping alive and the last one to go releases it.

import CFFmpeg
import Glibc

/// Maps a helper's answer as a decoded frame.
enum MappedPicture {
    /// A frame of `format`, `width` × `height`, whose planes are `layout`'s in the `descriptor`
    /// file from `offset` on. The file must be sealed: its pages can then neither change nor
    /// vanish under the mapping.
    /// - Throws: `MediaError` when the mapping or the frame cannot be made.
    static func frame(from descriptor: Int32, at offset: Int, layout: PictureLayout, format: AVPixelFormat,
                      width: Int, height: Int, path: String) throws(MediaError) -> Frame {
        guard let base = mmap(nil, layout.byteCount, PROT_READ, MAP_SHARED, descriptor, off_t(offset)), base != MAP_FAILED else {
            throw MediaError(.inputInvalid, subject: path, message: "could not be decoded: its picture could not be mapped (\(String(cString: strerror(errno))))")
        }
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        // The mapping's length rides in the opaque pointer: the callback needs nothing else.
        let length = UnsafeMutableRawPointer(bitPattern: layout.byteCount)
        guard let buffer = av_buffer_create(bytes, layout.byteCount, { length, data in
            munmap(data, Int(bitPattern: length))
        }, length, Int32(AV_BUFFER_FLAG_READONLY)) else {
            munmap(base, layout.byteCount)
            throw MediaError.outOfMemory(subject: path)
        }
        let frame: Frame
        do {
            frame = try Frame(subject: path)
        } catch {
            var unused: UnsafeMutablePointer<AVBufferRef>? = buffer
            av_buffer_unref(&unused)
            throw error
        }
        frame.pointer.pointee.buf.0 = buffer
        frame.pointer.pointee.format = format.rawValue
        frame.pointer.pointee.width = Int32(width)
        frame.pointer.pointee.height = Int32(height)
        frame.setPlanes(PlanePointers(data: layout.planes.map { bytes + $0.offset }, strides: layout.planes.map { Int32($0.stride) }))
        return frame
    }
}
