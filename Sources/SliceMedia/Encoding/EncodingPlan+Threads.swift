// How an output's thread count reaches its encoder. libavcodec's `thread_count` is the way for
// most (x264's `threads`, libvpx's and libaom's `g_threads`, the slice and frame threads of
// FFmpeg's own encoders); x265 takes it as frame threads and sizes its worker pool from the
// machine unless told (`pools`); SVT-AV1 ignores it and counts logical processors (`lp`).

extension EncodingPlan {
    /// `AVCodecContext.thread_count` for this output: `threads`, or for x265 the frame threads
    /// x265 itself would pick for a pool of `threads` (its rule: 1 below 4 threads, 2 from 4,
    /// 3 from 8, 5 from 16, 6 from 32).
    package var threadCount: Int32 {
        guard encoder == "libx265" else { return Int32(clamping: threads) }
        let frameThreads = threads >= 32 ? 6 : threads >= 16 ? 5 : threads >= 8 ? 3 : threads >= 4 ? 2 : 1
        return Int32(frameThreads)
    }

    /// The encoder's own parameters that carry the thread count, `key=value` in its params
    /// string: x265's worker pool, SVT-AV1's logical processors. Empty for the rest.
    package var threadParameters: [(String, String)] {
        switch encoder {
        case "libx265": [("pools", String(threads))]
        case "libsvtav1": [("lp", String(threads))]
        default: []
        }
    }
}
