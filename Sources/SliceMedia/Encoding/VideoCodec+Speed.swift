// `--encoder-preset`: one speed scale for every codec. x264's preset names (ultrafast … placebo)
// work everywhere and are translated to each encoder's own knob; the knob's own numbers work
// too, for those who know them.

import SliceKit

extension VideoCodec {
    /// The speed names every codec with a speed setting accepts, fastest first.
    package static let speedNames = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium",
                                    "slow", "slower", "veryslow", "placebo"]

    /// Every number an encoder's own speed knob takes (SVT-AV1's presets are the widest).
    package static let speedNumbers = 0...13

    /// The speed used when none is given.
    static let defaultSpeed = "medium"

    /// The encoder options and a short description for `preset` (nil: the default speed).
    /// - Returns: nil when `encoder` has no speed setting (ProRes, FFV1, GIF, PNG).
    /// - Throws: a message saying what the encoder accepts, when `preset` is not one of them.
    func speedOptions(encoder: String, preset: String?) throws(PlanError) -> (options: [(String, String)], summary: String)? {
        let text = (preset ?? VideoCodec.defaultSpeed).lowercased()
        let step = VideoCodec.speedNames.firstIndex(of: text)
        let number = Int(text)
        func refuse(_ accepted: String) -> PlanError {
            PlanError(.usage, "\(InputText.quoted(text)) is not a speed \(displayName) (\(encoder)) takes; accepted: \(accepted)")
        }
        let names = VideoCodec.speedNames.joined(separator: ", ")
        switch encoder {
        case "libx264", "libx265":
            guard step != nil else { throw refuse(names) }
            return ([("preset", text)], "preset \(text)")
        case "libvpx-vp9":
            // libvpx's good-quality deadline stops at cpu-used 5; faster needs the realtime one.
            let ladder = [8, 7, 5, 4, 3, 2, 1, 0, 0, 0]
            guard let cpuUsed = step.map({ ladder[$0] }) ?? number, (0...8).contains(cpuUsed) else {
                throw refuse("\(names), or cpu-used 0–8")
            }
            let deadline = cpuUsed >= 6 ? "realtime" : "good"
            return ([("deadline", deadline), ("cpu-used", String(cpuUsed))], "cpu-used \(cpuUsed) (\(deadline))")
        case "libsvtav1":
            let ladder = [12, 11, 10, 9, 8, 7, 6, 4, 2, 0]
            guard let svtPreset = step.map({ ladder[$0] }) ?? number, (0...13).contains(svtPreset) else {
                throw refuse("\(names), or an SVT-AV1 preset 0–13")
            }
            return ([("preset", String(svtPreset))], "preset \(svtPreset)")
        case "libaom-av1":
            let ladder = [8, 8, 7, 6, 5, 4, 3, 2, 1, 0]
            guard let cpuUsed = step.map({ ladder[$0] }) ?? number, (0...8).contains(cpuUsed) else {
                throw refuse("\(names), or cpu-used 0–8")
            }
            return ([("cpu-used", String(cpuUsed))], "cpu-used \(cpuUsed)")
        default:
            return nil
        }
    }
}
