// `slicevid make --dry-run`: what each output would be, one line each (or one JSON object each
// with --json), without rendering, in the words `probe` reads the written files back with.

import Slicevid

/// Formats a make plan for stdout.
enum DryRun {
    /// One line per output, in request order: `PATH: key=value …`.
    static func report(_ plan: MakePlan) -> [String] {
        var outputs = plan.outputs.makeIterator()
        var lines: [String] = []
        for destination in plan.destinations {
            let path = OutputSpelling.spelled(destination)
            guard destination != .discard, let output = outputs.next() else {
                lines.append("\(path): render only (frames=\(plan.clip.frameCount))\n")
                continue
            }
            let loudness = output.audio == nil ? nil : plan.audio?.loudness.map { ("loudness", $0.plainSeconds) }
            let threads = output.clipThreads.map { [(key: "threads", value: String($0))] } ?? []
            lines.append(FactsText.line(path, output.summary + (loudness.map { [$0] } ?? []) + threads))
        }
        return lines
    }

    /// The line on stderr saying what would be rendered (and which folders made), after the
    /// plan's lines on stdout.
    static func header(_ plan: MakePlan) -> String {
        let clip = plan.clip
        let folders = plan.foldersToCreate.isEmpty ? "" : " (would create folder\(plan.foldersToCreate.count == 1 ? "" : "s") \(plan.foldersToCreate.joined(separator: ", ")))"
        return "slicevid: dry run: would render \(clip.frameCount) frames of \(clip.width)x\(clip.height) at \(clip.frameRate) fps "
            + "in \(layouts(plan))\(folders)\(bed(plan))\(layers(plan)); nothing was written\n"
    }

    /// A line for each over layer that arrives or leaves, after the header: its resolved times
    /// on this clip.
    static func motion(_ plan: MakePlan) -> [String] {
        (plan.layout?.scheduleLines ?? []).map { "slicevid: dry run: \($0)\n" }
    }

    /// "yuv420p", or with outputs that want different layouts "yuv420p, gbrp (each output in
    /// its own)": every output is fed frames in the layout it would have alone.
    private static func layouts(_ plan: MakePlan) -> String {
        plan.renderLayouts.map(\.rawValue).joined(separator: ", ") + (plan.renderLayouts.count > 1 ? " (each output in its own)" : "")
    }

    /// ", with layout promo.json (variant 9:16, 2 layers on cards, 2 over the frames, clear of
    /// TikTok's interface)", when there is a layout.
    private static func layers(_ plan: MakePlan) -> String {
        guard let layout = plan.layout else { return "" }
        let cards = layout.layers.count - layout.overLayers.count, over = layout.overLayers.count
        var parts = [layout.variant.map { "variant \($0)" }, cards > 0 ? "\(cards) layer\(cards == 1 ? "" : "s") on cards" : nil,
                     over > 0 ? "\(over) over the frames" : nil].compactMap { $0 }
        if !layout.safeZones.isEmpty {
            parts.append("clear of \(SafeZone.possessive(layout.safeZones)) interface\(layout.safeZones.count == 1 ? "" : "s")")
        }
        return ", with layout \(InputText.escaped(layout.file)) (\(parts.joined(separator: ", ")))"
    }

    /// ", with audio from FILE (mp3, 44100 Hz, 2 channels, 3:25, stream 0)", when there is a bed.
    private static func bed(_ plan: MakePlan) -> String {
        guard let audio = plan.audio else { return "" }
        let length = audio.duration.map { ", \($0.plainSeconds) s" } ?? ""
        return ", with audio from \(audio.path) (stream \(audio.stream): \(audio.codecName), \(audio.sampleRate) Hz, \(audio.channels) channel\(audio.channels == 1 ? "" : "s")\(length))"
    }

    /// One JSON object per output, in request order: the facts `probe --json` gives for the
    /// file once written, and the encoder with its settings (`null` renders nothing).
    static func json(_ plan: MakePlan) -> [String] {
        var outputs = plan.outputs.makeIterator()
        return plan.destinations.map { destination in
            let path = OutputSpelling.spelled(destination)
            guard destination != .discard, let output = outputs.next() else {
                return "{\"frames\":\(plan.clip.frameCount),\"path\":\"\(OutputSpelling.discard)\",\"render_only\":true}\n"
            }
            var extra: [String: Any] = ["encoder": output.encoder]
            for (key, value) in output.settings { extra[key] = Int(value) ?? value as Any }
            if let sheet = output.sheet { extra["sheet"] = sheet.description }
            for (key, value) in output.audioSettings { extra[key] = value }
            if output.audio != nil, let loudness = plan.audio?.loudness { extra["loudness"] = loudness }
            if let threads = output.clipThreads { extra["threads"] = threads }
            return FactsText.json(path, output.facts, extra: extra)
        }
    }
}
