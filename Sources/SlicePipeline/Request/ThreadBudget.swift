// How one machine's cores are shared: among the jobs a batch runs side by side, their render
// threads, and every output's encoder. One value, built from the core count, so a test can say
// "16 cores" on a 2-core machine and the CLI can be told a container's share.
//
// Encoders get an explicit thread count instead of libavcodec's "every core" (x264's auto is 1.5
// per core, and each thread holds frames): 16 jobs side by side on 16 cores once held 16 × 24
// x264 threads and 14 GB. x264, x265 and libvpx write other bytes with another thread count, so
// an output's count comes from the cores and its own frame size only, never from how many jobs
// run beside it, `-j`, the other outputs or the load: `--parallel 1` and `--parallel 16` write
// the same files.

import Foundation
import SliceKit

/// The cores a run shares out, and how: render threads per job, encoder threads per output, and
/// jobs side by side by default.
public struct ThreadBudget: Sendable, Equatable, CustomStringConvertible {
    /// The cores shared out.
    public let cores: Int

    /// The core counts accepted.
    public static let coresRange = 1...4096

    /// A budget for `cores` cores, whatever the machine has (a container's share, a test's
    /// machine of another size).
    /// - Throws: `SlicevidError(.usage)` outside `coresRange`.
    public init(cores: Int) throws(SlicevidError) {
        guard ThreadBudget.coresRange.contains(cores) else {
            throw SlicevidError(.usage, "\(setting: .cores): \(cores) is not a whole number \(ThreadBudget.coresRange.lowerBound)–\(ThreadBudget.coresRange.upperBound)")
        }
        self.cores = cores
    }

    private init(clamping cores: Int) {
        self.cores = min(max(cores, ThreadBudget.coresRange.lowerBound), ThreadBudget.coresRange.upperBound)
    }

    /// This machine's: the processors this process may run on.
    public static var machine: ThreadBudget { ThreadBudget(clamping: ProcessInfo.processInfo.activeProcessorCount) }

    public var description: String { "\(cores) core\(cores == 1 ? "" : "s")" }

    /// The frame a job is given a core for: 1280x720. x264 and libvpx keep about one core busy
    /// on frames this size in a short clip; larger frames use more.
    package static let pixelsPerCore = 1280 * 720

    /// The most frame pixels the encoders of jobs side by side are let hold by default: three
    /// 1920x1080 frames' worth. An encoder's memory grows with its frame (x264 at 1080p keeps about
    /// 400 MB of look-ahead whatever its threads, and 24 MB more per thread), so jobs of large
    /// frames share the cores as a few jobs of many threads rather than many jobs of few.
    package static let pixelsSideBySide = 3 * 1920 * 1080

    /// Render threads for each of `parallel` jobs side by side: the cores shared among them, at
    /// least one, at most `MakeRequest.renderThreadsRange`'s most. Frames are the same for any.
    public func renderThreads(sharedBy parallel: Int) -> Int {
        min(MakeRequest.renderThreadsRange.upperBound, max(1, cores / max(1, parallel)))
    }

    /// Jobs side by side for frames of `pixels` when nothing else limits them: the cores divided
    /// by the cores such a frame wants (one per `pixelsPerCore`, rounded up), and no more than
    /// keep `pixelsSideBySide` in their encoders (but two where the cores allow it).
    /// 640x360 on 16 cores: 16; 1920x1080 on 16 cores: 3, on 2 cores: 1; 3840x2160 on 32: 2.
    package func jobsSideBySide(pixels: Int) -> Int {
        let pixels = max(1, pixels)
        let byCores = cores / ((pixels + ThreadBudget.pixelsPerCore - 1) / ThreadBudget.pixelsPerCore)
        let byMemory = max(2, ThreadBudget.pixelsSideBySide / pixels)
        return max(1, min(byCores, byMemory))
    }

    /// Encoder threads for an output of `width` × `height`: one and a half per core of the share a
    /// job of that frame gets when jobs of its size share the machine by default
    /// (`jobsSideBySide`), rounded down, at least one — what x264 runs by itself on a machine of
    /// that many cores (its frame threads wait on each other's rows, so 1.5 a core keeps them
    /// busy). Depends on the cores and the frame alone — not on the jobs beside it, `-j` or the
    /// other outputs — because x264, x265 and libvpx write other bytes with another count.
    /// 1920x1080 on 16 cores: 7; on 2: 3 (x264's own choice there); 640x360 on 16: 1.
    public func encoderThreads(width: Int, height: Int) -> Int {
        let share = cores / jobsSideBySide(pixels: max(1, width) * max(1, height))
        return max(1, share * 3 / 2)
    }
}
