// One AVCodecContext, owned: a decoder or an encoder, freed in deinit on every path. The send
// and receive calls report EAGAIN and EOF as outcomes, not errors (they are control flow).

import CFFmpeg
import Synchronization

/// A decoder or encoder and its settings.
///
/// Not thread-safe: one owner at a time (the still being decoded, the writer encoding).
final class CodecContext {
    /// The context itself, for FFmpeg calls inside this module only.
    let pointer: UnsafeMutablePointer<AVCodecContext>
    /// The decoder or encoder the context was made for.
    let codec: UnsafePointer<AVCodec>
    /// What errors name: the file being read or written.
    let subject: String

    /// What `avcodec_receive_frame` or `avcodec_receive_packet` gave.
    enum Received: Equatable {
        /// A frame or packet was written.
        case ready
        /// Send more input first (EAGAIN).
        case needsInput
        /// Everything was flushed out (EOF).
        case drained
        /// Anything else: FFmpeg's (negative) error code.
        case failed(Int32)
    }

    /// An unopened context for `codec`.
    /// - Throws: `MediaError` when out of memory.
    init(codec: UnsafePointer<AVCodec>, subject: String) throws(MediaError) {
        guard let context = avcodec_alloc_context3(codec) else { throw MediaError.outOfMemory(subject: subject) }
        pointer = context
        self.codec = codec
        self.subject = subject
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = pointer
        Self.oneAtATime(codec) { avcodec_free_context(&context) }
    }

    /// Held while an encoder that shares state with the rest of the process opens or closes
    /// (`VideoCodec.sharesProcessState`).
    private static let opening = Mutex(())

    /// Runs `body` (an open or a close of `codec`), alone among such calls if `codec` needs it.
    private static func oneAtATime<T>(_ codec: UnsafePointer<AVCodec>, _ body: () -> T) -> T {
        guard VideoCodec.sharesProcessState(encoder: String(cString: codec.pointee.name)) else { return body() }
        return opening.withLock { _ in body() }
    }

    /// Opens the codec; `options` keeps whatever the codec did not take. The scheduling of the
    /// calling thread, and of the threads the codec starts, is what it was before
    /// (`ThreadScheduling`: SVT-AV1 run by root makes them real-time).
    /// - Parameter subject: what a failure names, if not the file (the encoder too, say).
    /// - Throws: `MediaError` naming `avcodec_open2` and FFmpeg's reason.
    func open(options: inout OpaquePointer?, subject: String? = nil) throws(MediaError) {
        let code = Self.oneAtATime(codec) { ThreadScheduling.keeping { avcodec_open2(pointer, codec, &options) } }
        try check(code, "avcodec_open2", subject: subject ?? self.subject)
    }

    /// Opens the codec with its defaults.
    func open() throws(MediaError) {
        var none: OpaquePointer?
        try open(options: &none)
        av_dict_free(&none)
    }

    // MARK: decoding

    /// Sends compressed data to a decoder (nil starts draining).
    /// - Returns: FFmpeg's code: 0, EAGAIN (receive first), EOF (already draining) or an error.
    func sendPacket(_ packet: Packet?) -> Int32 {
        avcodec_send_packet(pointer, packet?.pointer)
    }

    /// Takes the next decoded picture, if the decoder has one.
    func receiveFrame(_ frame: Frame) -> Received {
        Self.outcome(avcodec_receive_frame(pointer, frame.pointer))
    }

    // MARK: encoding

    /// Sends a picture to an encoder (nil flushes it).
    /// - Throws: `MediaError` naming `avcodec_send_frame` and FFmpeg's reason.
    func sendFrame(_ frame: Frame?) throws(MediaError) {
        try check(avcodec_send_frame(pointer, frame?.pointer), "avcodec_send_frame", subject: subject)
    }

    /// Takes the next encoded packet, if the encoder has one.
    /// - Throws: `MediaError` for anything but a packet, EAGAIN or EOF.
    func receivePacket(_ packet: Packet) throws(MediaError) -> Received {
        let received = Self.outcome(avcodec_receive_packet(pointer, packet.pointer))
        if case .failed(let code) = received { try check(code, "avcodec_receive_packet", subject: subject) }
        return received
    }

    private static func outcome(_ code: Int32) -> Received {
        if code >= 0 { return .ready }
        if code == AVStatus.again { return .needsInput }
        if code == AVStatus.endOfFile { return .drained }
        return .failed(code)
    }
}
