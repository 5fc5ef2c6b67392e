// A layout's part of a job's fingerprint: the variant and safe zone, the bytes of every font and
// image the layers use, and each layer as it is drawn at the job's frame size — where, on what,
// its text with the variables filled, its look. One fact a line, so `--plan` can say exactly
// what changed: `text of layer 2: '2,49 €' → '2,29 €'`.

import SliceKit
import SlicePipeline

extension Fingerprint {
    /// This fingerprint with the lines of `layout` (resolved for the job's frames) added.
    /// - Parameter fileHashes: SHA-256 (hex) of each of the layout's files (`layout.files`), by path.
    /// - Parameter fileNames: the URL (redacted) a cache's file stands for, by its path: a remote
    ///   font is named by its URL, so the fingerprint does not follow where the cache is (its
    ///   bytes are on the `file` lines).
    package func adding(_ layout: LayoutPlan?, fileHashes: [String: String], fileNames: [String: String] = [:]) -> Fingerprint {
        guard let layout else { return self }
        var lines = self.lines
        lines.append("layout variant=\(layout.variant?.description ?? "none") safe-zone=\(Fingerprint.zonesText(layout.safeZones))")
        for (index, file) in layout.files.enumerated() { lines.append("file \(index) \(fileHashes[file] ?? "unread")") }
        for (index, layer) in layout.layers.enumerated() {
            let number = index + 1
            lines.append("layer \(number) place on=\(layer.placement.fingerprintText) box=\(layer.box.width)x\(layer.box.height)+\(layer.box.x)+\(layer.box.y)")
            if case .over(let timing) = layer.placement {
                // Only a layer that arrives or leaves has these lines: other jobs keep their fingerprints.
                if let entrance = timing.entrance { lines.append("layer \(number) in \(entrance.fingerprintText)") }
                if let exit = timing.exit { lines.append("layer \(number) out \(exit.fingerprintText)") }
            }
            switch layer.content {
            case .text(let text):
                lines.append("layer \(number) text " + Fingerprint.oneLine(text.template))
                lines.append("layer \(number) style " + text.fingerprintPairs(naming: fileNames).map { "\($0.key)=\($0.value)" }.joined(separator: " "))
            case .image(let path):
                lines.append("layer \(number) image \(fileHashes[path] ?? "unread")")
            }
        }
        return Fingerprint(lines: lines)
    }

    /// `none`, `tiktok`, `tiktok,reels,shorts`: the zones a job's layers keep clear of, in one
    /// order whatever order they were written in (the order only decides which a refusal names).
    static func zonesText(_ zones: [SafeZone]) -> String {
        zones.isEmpty ? "none" : SafeZone.allCases.filter(zones.contains).map(\.rawValue).joined(separator: ",")
    }

    /// `text` on one line: backslashes and line breaks escaped, so it reads back unambiguously.
    static func oneLine(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }
}

extension Layout.Placement {
    /// `to`, `all`, `still-2`, `over(0-end,fade 0.5/0.5)`.
    var fingerprintText: String {
        switch self {
        case .card(.from): "from"
        case .card(.to): "to"
        case .card(.all): "all"
        case .card(.still(let index)): "still-\(index)"
        case .over(let timing):
            "over(\(timing.start.shortText)-\(timing.end.map(\.shortText) ?? "end"),fade \(timing.fadeIn.shortText)/\(timing.fadeOut.shortText))"
        }
    }
}

extension Layout.Motion {
    /// `effect=slide-up at=landed+0.1 duration=0.5 easing=ease-out`; `default` where the layout
    /// leaves a value to the clip.
    var fingerprintText: String {
        "effect=\(effect) at=\(at?.description ?? "default") duration=\(duration?.shortText ?? "default") easing=\(easing?.description ?? "default")"
    }
}

extension Layout.Text {
    /// Every setting that changes the text's pixels, in a fixed order, lengths as drawn.
    /// - Parameter names: how a font file is named instead of its path (a cache's by its URL).
    func fingerprintPairs(naming names: [String: String] = [:]) -> [(key: String, value: String)] {
        var pairs: [(String, String)] = []
        switch size {
        case .pixels(let pixels): pairs.append(("size", pixels.shortText))
        case .auto(let low, let high): pairs.append(("size", "auto(\(low.shortText)-\(high.shortText))"))
        }
        let plateText = plate.map { "\($0.color)/\($0.padding.shortText)/\($0.radius.shortText)" } ?? "-"
        let outlineText = outline.map { "\($0.width.shortText)/\($0.color)" } ?? "-"
        let shadowText = shadow.map { "\($0.x.shortText)/\($0.y.shortText)/\($0.blur.shortText)/\($0.color)" } ?? "-"
        pairs.append(("fonts", fonts.map { names[$0] ?? $0 }.joined(separator: ",")))
        pairs.append(("family", family ?? "-"))
        pairs.append(("weight", String(weight)))
        pairs.append(("wrap", String(wrap)))
        pairs.append(("max-lines", maxLines.map(String.init) ?? "-"))
        pairs.append(("align", align.rawValue))
        pairs.append(("valign", verticalAlign.rawValue))
        pairs.append(("line-height", lineHeight?.shortText ?? "-"))
        pairs.append(("color", color.description))
        pairs.append(("plate", plateText))
        pairs.append(("outline", outlineText))
        pairs.append(("shadow", shadowText))
        pairs.append(("ellipsis", String(ellipsis)))
        pairs.append(("language", language))
        // Only when there is one, so a layout without scrims keeps the fingerprints it had.
        if let scrim { pairs.append(("scrim", scrim.summary.replacingOccurrences(of: " ", with: "/"))) }
        return pairs
    }
}
