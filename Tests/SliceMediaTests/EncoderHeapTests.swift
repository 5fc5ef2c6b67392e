// x264's SIMD macroblock-tree propagation reads 16 bytes where 12 are its own at some frame sizes
// (valgrind: "Invalid read of size 16 … 157,812 bytes inside a block of size 157,824" at
// 160x90), and the four bytes past the block steer the encode. They are whatever the heap held
// there, so two encodes of the same frames in one process, with other work between them, wrote
// different H.264 (batch --parallel 4 of a 160x90 campaign: one run in ten). The encoder is told
// to be CPU-independent, which takes the exact C path for that step.

import Foundation
import Glibc
import SliceKit
@testable import SliceMedia
import Testing

@Suite(.timeLimit(.minutes(10))) struct EncoderHeapTests {
    @Test("a 160x90 H.264 encode is the same bytes whatever the heap held where x264's buffers land")
    func x264IgnoresTheBytesPastItsBuffers() async {
        // In a process of its own: the heap's settings are the process's.
        await #expect(processExitsWith: .success) {
            // Large blocks from the heap (not fresh, zeroed mappings), and every block handed out
            // or freed filled with a pattern: what lies past x264's buffers is that pattern.
            // (glibc's mallopt and its M_MMAP_THRESHOLD -3 and M_PERTURB -6; Glibc does not import malloc.h.)
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            guard let symbol = dlsym(nil, "mallopt") else { exit(2) }
            let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
            guard mallopt(-3, 256 << 20) == 1 else { exit(2) }
            let pictures = FormatClip.pictures(width: 160, height: 90, count: 24).map { $0.planar(.yuv420p) }
            let clip = Clip(width: 160, height: 90, frameRate: FrameRate(10), frameCount: pictures.count, isTransparent: false)
            var written: [Data] = []
            for pattern: Int32 in [0x5A, 0xC3] {
                guard mallopt(-6, pattern) == 1 else { exit(3) }
                let path = NSTemporaryDirectory() + "slicevid-heap-\(getpid())-\(pattern).mp4"
                defer { unlink(path) }
                let plan = try! EncodingPlan.resolve(path: path, format: .mp4, own: EncoderSettings(preset: "fast"), clip: clip)
                guard plan.encoder == "libx264" else { exit(4) }
                let writer = try! VideoWriter(plan: plan, path: path, inputLayout: .yuv420p)
                for (index, picture) in pictures.enumerated() { try! writer.write(picture, index: index) }
                try! writer.finish()
                guard let bytes = FileManager.default.contents(atPath: path), (try? MediaReader.info(path: path).frameCount) == pictures.count else { exit(5) }
                written.append(bytes)
            }
            exit(written[0] == written[1] ? 0 : 1)
        }
    }
}
