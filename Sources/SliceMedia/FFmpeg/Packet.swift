// One AVPacket, owned: allocated in init and freed in deinit, so no path leaks it.

import CFFmpeg

/// Compressed data on its way between a demuxer, a codec and a muxer.
///
/// Not thread-safe: one owner at a time.
final class Packet {
    /// The packet itself, for FFmpeg calls inside this module only.
    let pointer: UnsafeMutablePointer<AVPacket>

    /// An empty packet.
    /// - Throws: `MediaError` when out of memory.
    init(subject: String) throws(MediaError) {
        guard let packet = av_packet_alloc() else { throw MediaError.outOfMemory(subject: subject) }
        pointer = packet
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }

    /// Drops the packet's data reference, for reuse.
    func unref() { av_packet_unref(pointer) }

    /// The index of the stream the packet belongs to.
    var streamIndex: Int32 {
        get { pointer.pointee.stream_index }
        set { pointer.pointee.stream_index = newValue }
    }
}
