// How a song's channels become the bed's two. libswresample downmixes the layouts it knows
// (mono, stereo, the usual surround layouts: front, side, back and centre speakers) and refuses
// the rest: a WAV of 9–15, 17–23 or 25–64 channels has no layout FFmpeg can name, so its graph
// failed to configure. Those, and layouts holding speakers libswresample would silently drop
// (height, wide), are mixed here with an explicit matrix instead: every channel reaches the bed.

import CFFmpeg

/// The down-mix of one channel layout to stereo.
enum StereoDownmix {
    /// The speakers libswresample's stereo down-mix places (the low-frequency channel it drops
    /// by design, as down-mixes do).
    private static let placedBySwresample = bits([AV_CHAN_FRONT_LEFT, AV_CHAN_FRONT_RIGHT, AV_CHAN_FRONT_CENTER, AV_CHAN_LOW_FREQUENCY,
                                                  AV_CHAN_BACK_LEFT, AV_CHAN_BACK_RIGHT, AV_CHAN_BACK_CENTER, AV_CHAN_SIDE_LEFT,
                                                  AV_CHAN_SIDE_RIGHT, AV_CHAN_FRONT_LEFT_OF_CENTER, AV_CHAN_FRONT_RIGHT_OF_CENTER])

    /// A native layout's mask of `channels` (FFmpeg's AV_CH_* macros, which Swift cannot import).
    private static func bits(_ channels: [AVChannel]) -> UInt64 {
        channels.reduce(0) { $0 | 1 << UInt64($1.rawValue) }
    }

    /// Speakers on the left, on the right, and in the middle.
    private static let left: Set<AVChannel> = [AV_CHAN_FRONT_LEFT, AV_CHAN_BACK_LEFT, AV_CHAN_SIDE_LEFT, AV_CHAN_FRONT_LEFT_OF_CENTER,
                                               AV_CHAN_TOP_FRONT_LEFT, AV_CHAN_TOP_BACK_LEFT, AV_CHAN_TOP_SIDE_LEFT, AV_CHAN_STEREO_LEFT,
                                               AV_CHAN_WIDE_LEFT, AV_CHAN_SURROUND_DIRECT_LEFT, AV_CHAN_BOTTOM_FRONT_LEFT]
    private static let right: Set<AVChannel> = [AV_CHAN_FRONT_RIGHT, AV_CHAN_BACK_RIGHT, AV_CHAN_SIDE_RIGHT, AV_CHAN_FRONT_RIGHT_OF_CENTER,
                                                AV_CHAN_TOP_FRONT_RIGHT, AV_CHAN_TOP_BACK_RIGHT, AV_CHAN_TOP_SIDE_RIGHT, AV_CHAN_STEREO_RIGHT,
                                                AV_CHAN_WIDE_RIGHT, AV_CHAN_SURROUND_DIRECT_RIGHT, AV_CHAN_BOTTOM_FRONT_RIGHT]
    private static let middle: Set<AVChannel> = [AV_CHAN_FRONT_CENTER, AV_CHAN_BACK_CENTER, AV_CHAN_TOP_CENTER, AV_CHAN_TOP_FRONT_CENTER,
                                                 AV_CHAN_TOP_BACK_CENTER, AV_CHAN_BOTTOM_FRONT_CENTER]

    /// A `pan` filter mixing `layout` to stereo, or nil when libswresample's own down-mix
    /// (aresample's) takes every channel of it.
    ///
    /// The matrix: a speaker on the left goes left, one on the right goes right, one in the
    /// middle goes to both at -3 dB (libswresample's centre level); low-frequency channels are
    /// left out, as libswresample leaves them out, unless there is nothing else. Channels with
    /// no known place (an unlabelled WAV's, an ambisonic file's) go left and right in turn:
    /// the first left, the second right, and so on. Each side is then scaled so its gains add
    /// up to 1 (pan's `<`), so the mix cannot clip, as libswresample scales its own.
    static func filter(for layout: UnsafePointer<AVChannelLayout>) -> String? {
        let count = Int(layout.pointee.nb_channels)
        if layout.pointee.order == AV_CHANNEL_ORDER_NATIVE, count < 64, isMixedBySwresample(layout.pointee.u.mask) { return nil }
        var gains: [[Term]] = [[], []]
        var lowFrequency: [Term] = []
        var unplaced = 0
        for index in 0..<count {
            let channel = av_channel_layout_channel_from_index(layout, UInt32(index))
            if left.contains(channel) {
                gains[0].append(Term(channel: index))
            } else if right.contains(channel) {
                gains[1].append(Term(channel: index))
            } else if middle.contains(channel) {
                for side in 0..<2 { gains[side].append(Term(channel: index, centre: true)) }
            } else if channel == AV_CHAN_LOW_FREQUENCY || channel == AV_CHAN_LOW_FREQUENCY_2 {
                lowFrequency.append(Term(channel: index))
            } else {
                gains[unplaced % 2].append(Term(channel: index))
                unplaced += 1
            }
        }
        if gains[0].isEmpty && gains[1].isEmpty { gains = [lowFrequency, lowFrequency] }
        // One side empty (a lone channel with no place, a layout all on one side): it takes the other's.
        if gains[0].isEmpty { gains[0] = gains[1] }
        if gains[1].isEmpty { gains[1] = gains[0] }
        // One channel a side, each whole: pan would hand that to libswresample as a channel
        // mapping, which refuses a layout it cannot down-mix itself (front left and top back
        // right, say); channelmap moves the two channels without it.
        if let l = gains[0].first, let r = gains[1].first, gains[0].count == 1, gains[1].count == 1, l != r, !l.centre, !r.centre {
            return "channelmap=map=\(l.channel)-FL|\(r.channel)-FR:channel_layout=stereo"
        }
        func side(_ terms: [Term]) -> String { terms.map(\.text).joined(separator: "+") }
        return "pan=stereo|FL<\(side(gains[0]))|FR<\(side(gains[1]))"
    }

    /// One input channel in a side's sum: whole, or at -3 dB for a centre speaker.
    private struct Term: Equatable {
        var channel: Int
        var centre = false
        /// As pan writes it.
        var text: String { centre ? "0.7071*c\(channel)" : "c\(channel)" }
    }

    /// libswresample's own test (`sane_layout`) for a layout it can down-mix, and no speaker
    /// it would drop: a front speaker, left and right in pairs, nothing but the speakers it places.
    private static func isMixedBySwresample(_ mask: UInt64) -> Bool {
        func paired(_ a: AVChannel, _ b: AVChannel) -> Bool { (mask & bits([a]) == 0) == (mask & bits([b]) == 0) }
        return mask & bits([AV_CHAN_FRONT_LEFT, AV_CHAN_FRONT_RIGHT, AV_CHAN_FRONT_CENTER]) != 0
            && paired(AV_CHAN_FRONT_LEFT, AV_CHAN_FRONT_RIGHT) && paired(AV_CHAN_SIDE_LEFT, AV_CHAN_SIDE_RIGHT)
            && paired(AV_CHAN_BACK_LEFT, AV_CHAN_BACK_RIGHT) && paired(AV_CHAN_FRONT_LEFT_OF_CENTER, AV_CHAN_FRONT_RIGHT_OF_CENTER)
            && mask & ~placedBySwresample == 0
    }
}
