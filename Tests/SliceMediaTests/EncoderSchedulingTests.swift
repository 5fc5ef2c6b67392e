// SVT-AV1, opened by root, starts its worker threads SCHED_FIFO at priority 99 and leaves the
// thread that opened it so too: an AV1 render starved the machine, and every thread or process
// started later from that thread inherited the policy. Opening an encoder keeps the scheduling
// it found (ThreadScheduling). Only root (or CAP_SYS_NICE) sees SVT-AV1 do this, so the test
// runs as root, as CI does.

import Foundation
import Glibc
import SliceKit
@testable import SliceMedia
import Testing

@Suite(.timeLimit(.minutes(10))) struct EncoderSchedulingTests {
    @Test("an SVT-AV1 encode opened by root: no thread is real-time while it encodes, nor after, the opening thread included",
          .enabled(if: geteuid() == 0 && EncoderCatalog.installed.has("libsvtav1"), "SVT-AV1 makes real-time threads only when it may"))
    func anAV1EncodeLeavesEveryThreadTimeShared() async {
        // In a process of its own: the suite's other encoders open and close meanwhile.
        await #expect(processExitsWith: .success) {
            let realTime = { ThreadScheduling.threads().filter { ThreadScheduling.setting(of: $0)?.isRealTime == true } }
            guard ThreadScheduling.setting()?.isRealTime == false, realTime().isEmpty else { exit(2) }
            let path = NSTemporaryDirectory() + "slicevid-scheduling-\(getpid()).webm"
            defer { unlink(path) }
            let pictures = FormatClip.pictures(width: 64, height: 64)
            let clip = Clip(width: 64, height: 64, frameRate: FrameRate(10), frameCount: pictures.count, isTransparent: false)
            let plan = try! EncodingPlan.resolve(path: path, format: OutputFormat(path: path)!,
                                                 own: EncoderSettings(preset: "ultrafast", codec: CodecChoice(parsing: "libsvtav1")), clip: clip)
            guard plan.encoder == "libsvtav1" else { exit(3) }
            let writer = try! VideoWriter(plan: plan, path: path, inputLayout: .yuv420p)
            // Open, with its workers running.
            try! writer.write(pictures[0].planar(.yuv420p), index: 0)
            let during = ThreadScheduling.threads().count
            guard realTime().isEmpty else { exit(4) }
            for (index, picture) in pictures.enumerated().dropFirst() { try! writer.write(picture.planar(.yuv420p), index: index) }
            try! writer.finish()
            guard ThreadScheduling.setting()?.isRealTime == false, realTime().isEmpty else { exit(5) }
            // The encoder had threads of its own to check, and wrote every frame.
            guard during > 4, (try? MediaReader.info(path: path).frameCount) == pictures.count else { exit(6) }
            exit(0)
        }
    }
}
