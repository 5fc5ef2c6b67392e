// Why a batch job renders: what differs between the fingerprint lines its sidecars recorded and
// the ones this run computes — a still's bytes, a setting (from what to what), an encoder
// setting, slicevid's version — or what happened to the output on disk. `batch --plan` lists
// them; a run logs them as each job starts.

import Foundation
import SliceKit
import SlicePipeline

/// One reason a job's output is not up to date.
public struct RenderReason: Sendable, Equatable, CustomStringConvertible {
    /// What kind of change it is; the raw value is the JSON log's `kind`.
    public enum Kind: String, Sendable {
        /// Nothing is at the output and no sidecar: it was never rendered.
        case newOutput = "new-output"
        /// A sidecar is there, but it proves nothing (another user's, in a folder others may
        /// write, not a record slicevid writes): the output is rendered as if new, and may
        /// replace only what is not there.
        case recordRefused = "record-refused"
        /// The sidecar is there, the output is not (or a frame of a sequence is not).
        case outputMissing = "output-missing"
        /// The output's size is not what its sidecar recorded.
        case outputChanged = "output-changed"
        /// A still's bytes (or the number of stills) changed.
        case stillChanged = "still-changed"
        /// A setting of the job (`field`, `from`, `to`) changed.
        case settingChanged = "setting-changed"
        /// A value of the job's feed row that its fields use (`field` is the column) changed.
        case valueChanged = "value-changed"
        /// An encoding setting of one output changed.
        case outputSettingChanged = "output-setting-changed"
        /// The sidecar was written by another slicevid version.
        case versionChanged = "version-changed"
        /// The sidecar records another fingerprint but not the lines that would say why.
        case fingerprintChanged = "fingerprint-changed"
        /// `--force` re-renders everything.
        case forced
    }

    public package(set) var kind: Kind
    /// The output it concerns; nil for the whole job (stills, settings, version).
    public package(set) var output: String?
    /// The setting (`crf`, `transition 1 duration`), or `still 2`.
    public package(set) var field: String?
    public package(set) var from: String?
    public package(set) var to: String?
    /// The sentence a log shows: `still 1 (stills/ocean.jpg) changed`, `crf 23 → 20`.
    public package(set) var description: String

    /// The memberwise initialiser, for the run (SliceBatch) that surveys jobs.
    package init(kind: Kind, output: String? = nil, field: String? = nil, from: String? = nil, to: String? = nil, description: String) {
        (self.kind, self.output, self.field, self.from, self.to, self.description) = (kind, output, field, from, to, description)
    }

    /// Why `output` must render, from its sidecar (`record`, nil when there is none) and the
    /// fingerprint this run computed; empty when it is up to date.
    /// - Parameters:
    ///   - onDisk: whether the output is present with the size the sidecar records.
    ///   - bytes: its size now, when present.
    ///   - images: the job's still paths, to name a changed still.
    ///   - refusal: why a sidecar that is there licenses nothing, when it does not.
    package static func reasons(output: String, record: OutputRecord?, fingerprint: Fingerprint, onDisk: Bool, bytes: Int?,
                                images: [String], layers: [String] = [], refusal: String? = nil,
                                validators: [String: String] = [:], layoutFiles: [String] = []) -> [RenderReason] {
        guard let record else {
            // A sidecar that proves nothing is no record, but the output is not new either.
            if let refusal {
                return [RenderReason(kind: .recordRefused, output: output, description: "\(output): its sidecar licenses nothing: \(refusal)")]
            }
            return [RenderReason(kind: .newOutput, output: output, description: "new output \(output)")]
        }
        guard record.fingerprint == fingerprint.value else {
            return changes(from: record.producedBy, to: fingerprint.lines, output: output, images: images, layers: layers, validators: validators,
                           layoutFiles: layoutFiles)
        }
        if onDisk { return [] }
        guard let bytes else {
            return [RenderReason(kind: .outputMissing, output: output, description: "\(output) is missing")]
        }
        return [RenderReason(kind: .outputChanged, output: output, from: String(record.bytes), to: String(bytes),
                             description: "\(output) changed size (recorded \(record.bytes) bytes, now \(bytes))")]
    }

    /// The reasons as one line for a log: `; `-separated, a job's new outputs named together
    /// (`new outputs /out/a.mp4, /out/a.webm`).
    package static func sentence(_ reasons: [RenderReason]) -> String {
        let new = reasons.filter { $0.kind == .newOutput }.compactMap(\.output)
        var parts = reasons.filter { $0.kind != .newOutput }.map(\.description)
        if new.count == 1 { parts.insert("new output \(new[0])", at: 0) }
        if new.count > 1 { parts.insert("new outputs \(new.joined(separator: ", "))", at: 0) }
        return parts.joined(separator: "; ")
    }

    /// How a remote still's version changed, by the validators of the digests on two `image`
    /// lines: `ETag "a1" → "b7"`; nil when either version is not known.
    static func versionChange(_ was: String, _ now: String, validators: [String: String]) -> (from: String, to: String, text: String)? {
        func digest(_ line: String) -> String? {
            let words = line.split(separator: " ")
            return words.count >= 3 ? String(words[2]) : nil
        }
        guard let from = digest(was).flatMap({ validators[$0] }), let to = digest(now).flatMap({ validators[$0] }), from != to else { return nil }
        // `ETag "a1" → "b7"` when both are ETags; each in full otherwise.
        if from.hasPrefix("ETag "), to.hasPrefix("ETag ") { return (from, to, "\(from) → \(to.dropFirst(5))") }
        return (from, to, "\(from) → \(to)")
    }

    /// Fields of an output's line that follow from the others and the job's settings.
    static let derivedFields: Set<String> = ["frames", "duration"]

    /// What differs between two sets of fingerprint lines, each difference named.
    /// - Parameter layers: how the job's layout names its layers, in drawing order (`layer
    ///   'price'`, `layer 3`): fingerprints number them.
    /// - Parameter validators: for remote stills and layout files, the validator (`ETag "a1"`)
    ///   of each version by its SHA-256: a change names the versions (`(ETag "a1" → "b7")`).
    /// - Parameter layoutFiles: how the job names its layout's files (fonts, images), in the
    ///   order fingerprints number them: a URL for a remote one.
    static func changes(from old: [String], to new: [String], output: String, images: [String], layers: [String] = [],
                        validators: [String: String] = [:], layoutFiles: [String] = []) -> [RenderReason] {
        guard !old.isEmpty else {
            return [RenderReason(kind: .fingerprintChanged, output: output,
                                 description: "\(output): its sidecar records another fingerprint (and not what made it)")]
        }
        func lines(_ prefix: String, in all: [String]) -> [String] { all.filter { $0.hasPrefix(prefix) } }
        var reasons: [RenderReason] = []
        if let was = old.first, let now = new.first, was != now {
            reasons.append(RenderReason(kind: .versionChanged, field: "slicevid", from: was, to: now, description: "\(was) → \(now)"))
        }
        /// `stills: 2 → 3` when a job's count of stills or transitions changed; nil when not.
        func count(_ field: String, _ was: [String], _ now: [String], kind: Kind) -> RenderReason? {
            guard was.count != now.count else { return nil }
            return RenderReason(kind: kind, field: field, from: String(was.count), to: String(now.count),
                                description: "\(field): \(was.count) → \(now.count)")
        }
        let (oldImages, newImages) = (lines("image ", in: old), lines("image ", in: new))
        if let changed = count("stills", oldImages, newImages, kind: .stillChanged) {
            reasons.append(changed)
        } else {
            for (index, (was, now)) in zip(oldImages, newImages).enumerated() where was != now {
                // The same bytes with its own focus or motion changed: those are named.
                if was.split(separator: " ").prefix(3) == now.split(separator: " ").prefix(3) {
                    reasons += fieldChanges(was, now, kind: .settingChanged, output: nil, prefix: "still \(index) ", unset: "the job's")
                    continue
                }
                let path = index < images.count ? " (\(images[index]))" : ""
                let versions = versionChange(was, now, validators: validators)
                reasons.append(RenderReason(kind: .stillChanged, field: "still \(index)", from: versions?.from, to: versions?.to,
                                            description: "still \(index)\(path) changed" + (versions.map { " (\($0.text))" } ?? "")))
            }
        }
        reasons += rowChanges(from: lines("row ", in: old), to: lines("row ", in: new))
        let (oldPairs, newPairs) = (lines("transition ", in: old), lines("transition ", in: new))
        if let changed = count("transitions", oldPairs, newPairs, kind: .settingChanged) {
            reasons.append(changed)
        } else {
            for (index, (was, now)) in zip(oldPairs, newPairs).enumerated() where was != now {
                let prefix = newPairs.count > 1 ? "transition \(index) " : ""
                reasons += fieldChanges(was, now, kind: .settingChanged, output: nil, prefix: prefix)
            }
        }
        reasons += layoutChanges(from: old, to: new, names: layers, files: layoutFiles, validators: validators)
        if let was = lines("output ", in: old).first, let now = lines("output ", in: new).first, was != now {
            // Frames and length follow from the settings: worth naming only when nothing else explains them.
            let changed = fieldChanges(was, now, kind: .outputSettingChanged, output: output, prefix: "")
            let settings = changed.filter { !RenderReason.derivedFields.contains($0.field ?? "") }
            reasons += reasons.isEmpty && settings.isEmpty ? changed : settings
        }
        if reasons.isEmpty {
            reasons.append(RenderReason(kind: .fingerprintChanged, output: output, description: "\(output): fingerprint changed"))
        }
        return reasons
    }

    /// What changed in a job's layout: its variant or safe zone, a font's or image's bytes, a
    /// layer's place, text or look (`text of layer 2: '2,49 €' → '2,29 €'`), or the number of layers.
    private static func layoutChanges(from old: [String], to new: [String], names: [String], files: [String],
                                      validators: [String: String]) -> [RenderReason] {
        func lines(_ prefix: String, in all: [String]) -> [String] { all.filter { $0.hasPrefix(prefix) } }
        var reasons: [RenderReason] = []
        let (wasLayout, nowLayout) = (lines("layout ", in: old).first, lines("layout ", in: new).first)
        if wasLayout != nowLayout {
            if let wasLayout, let nowLayout {
                reasons += fieldChanges(wasLayout, nowLayout, kind: .settingChanged, output: nil, prefix: "layout ")
            } else {
                reasons.append(RenderReason(kind: .settingChanged, field: "layout", from: wasLayout == nil ? "none" : "a layout",
                                            to: nowLayout == nil ? "none" : "a layout",
                                            description: nowLayout == nil ? "the layout was taken away" : "a layout was added"))
                return reasons
            }
        }
        let (wasFiles, nowFiles) = (lines("file ", in: old), lines("file ", in: new))
        for (index, (was, now)) in zip(wasFiles, nowFiles).enumerated() where was != now {
            // A remote one by its URL and versions: `layout file 1 (https://…/logo.png) changed (ETag "a1" → "b7")`.
            let versions = versionChange(was, now, validators: validators)
            let description = index < files.count && RemoteURL.isRemote(files[index])
                ? "layout file \(index) (\(files[index])) changed" + (versions.map { " (\($0.text))" } ?? "")
                : "a font, image or brand file of the layout changed"
            reasons.append(RenderReason(kind: .stillChanged, field: "layout file \(index)", from: versions?.from, to: versions?.to, description: description))
        }
        let (wasLayers, nowLayers) = (lines("layer ", in: old), lines("layer ", in: new))
        let keyed = { (line: String) -> (key: String, value: String) in
            let words = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
            return (words.prefix(3).joined(separator: " "), words.count > 3 ? String(words[3]) : "")
        }
        let was = Dictionary(wasLayers.map(keyed), uniquingKeysWith: { first, _ in first })
        let now = Dictionary(nowLayers.map(keyed), uniquingKeysWith: { first, _ in first })
        let wasCount = Set(wasLayers.map { $0.split(separator: " ")[1] }).count, nowCount = Set(nowLayers.map { $0.split(separator: " ")[1] }).count
        if wasCount != nowCount {
            reasons.append(RenderReason(kind: .settingChanged, field: "layers", from: String(wasCount), to: String(nowCount),
                                        description: "layers: \(wasCount) → \(nowCount)"))
            return reasons
        }
        for key in nowLayers.map({ keyed($0).key }) where was[key] != now[key] {
            let words = key.split(separator: " ")
            let number = Int(words[1]) ?? 0
            let layer = (1...max(1, names.count)).contains(number) && number <= names.count ? names[number - 1] : "layer \(words[1])"
            let (from, to) = (was[key] ?? "", now[key] ?? "")
            switch words[2] {
            case "text":
                reasons.append(RenderReason(kind: .settingChanged, field: "text of \(layer)", from: from, to: to,
                                            description: "text of \(layer): \(InputText.quoted(from)) → \(InputText.quoted(to))"))
            case "image":
                reasons.append(RenderReason(kind: .stillChanged, field: "image of \(layer)", description: "the image of \(layer) changed"))
            case "in", "out":
                // `layer 'price' in: slide-up → fade`, `layer 'price' out at end-0.4 → end-0.6`.
                let motion = "\(layer) \(words[2])"
                reasons += fieldChanges("x y " + from, "x y " + to, kind: .settingChanged, output: nil, prefix: motion + " ").map { change in
                    var shown = change
                    if change.field == motion + " effect" { shown.description = "\(motion): \(change.from ?? "none") → \(change.to ?? "none")" }
                    return shown
                }
            default:
                // Lengths at this frame size are seldom whole (9.333333333333332): shown to a tenth.
                reasons += fieldChanges("x y " + from, "x y " + to, kind: .settingChanged, output: nil, prefix: "\(layer) ").map { change in
                    var shown = change
                    shown.description = "\(change.field ?? "") \(Self.rounded(change.from ?? "unset")) → \(Self.rounded(change.to ?? "unset"))"
                    return shown
                }
            }
        }
        return reasons
    }

    /// `value` with every number that has more than one decimal rounded to a tenth:
    /// `auto(9.333333333333332-311.1111111111111)` → `auto(9.3-311.1)`.
    static func rounded(_ value: String) -> String {
        var result = "", number = ""
        func flush() {
            if let decimal = number.firstIndex(of: "."), number.distance(from: decimal, to: number.endIndex) > 2, let parsed = Double(number) {
                result += UnitText.pixels(parsed)
            } else {
                result += number
            }
            number = ""
        }
        for character in value {
            if character.isASCII && (character.isNumber || (character == "." && !number.isEmpty && !number.contains("."))) {
                number.append(character)
            } else {
                flush()
                result.append(character)
            }
        }
        flush()
        return result
    }

    /// `price '12,50 €' → '11,90 €'` for each used value of the feed row that differs, in the
    /// order of the new lines (a column no longer used reads `→ unset`); a value a format wrote
    /// as the clip shows it (`price '24,99 €' → '22,99 €'` for 24.99 → 22.99 in de-DE).
    static func rowChanges(from old: [String], to new: [String]) -> [RenderReason] {
        /// Each line's column, its value, and its value as the clip shows it.
        func values(_ lines: [String]) -> [(column: String, text: (raw: String, shown: String))] {
            lines.compactMap { line in
                let rest = line.dropFirst("row ".count)
                guard let space = rest.firstIndex(of: " ") else { return nil }
                // `"24.99"`, or `"24.99" as "24,99 €"`: the words after `as` are what formats wrote.
                let words = Fingerprint.rowWords(rest[rest.index(after: space)...])
                guard let raw = words.first.flatMap(Self.rowText) else { return nil }
                guard words.count > 2, words[1] == "as" else { return (String(rest[..<space]), (raw, raw)) }
                let shown = words.dropFirst(2).compactMap(Self.rowText)
                guard shown.count == words.count - 2 else { return nil }
                return (String(rest[..<space]), (raw, shown.joined(separator: " / ")))
            }
        }
        let (was, now) = (values(old), values(new))
        var columns = now.map(\.column)
        for (column, _) in was where !columns.contains(column) { columns.append(column) }
        let wasValues = Dictionary(was, uniquingKeysWith: { first, _ in first })
        let nowValues = Dictionary(now, uniquingKeysWith: { first, _ in first })
        return columns.compactMap { column in
            let (wasText, nowText) = (wasValues[column], nowValues[column])
            // As the clip shows it; as the feed holds it when that is all that differs (24.991 → 24.994).
            let shownDiffers = wasText?.shown != nowText?.shown
            let (from, to) = shownDiffers ? (wasText?.shown, nowText?.shown) : (wasText?.raw, nowText?.raw)
            guard from != to else { return nil }
            return RenderReason(kind: .valueChanged, field: column, from: from, to: to,
                                description: "\(column) \(from.map(InputText.quoted) ?? "unset") → \(to.map(InputText.quoted) ?? "unset")")
        }
    }

    /// A word of a `row` line as a reason shows it: the text, or for a long value, that it was one.
    private static func rowText(_ word: Substring) -> String? {
        // A long value is kept as its SHA-256 alone: the reason says so, not what it was.
        if word.hasPrefix("sha256:") { return "a long value (\(word.prefix(19))…)" }
        return Fingerprint.unquoted(word)
    }

    /// `field A → B` for each `key=value` that differs between two lines of the same kind.
    /// - Parameter unset: how a value one side does not give is worded.
    private static func fieldChanges(_ old: String, _ new: String, kind: Kind, output: String?, prefix: String,
                                     unset: String = "unset") -> [RenderReason] {
        let (was, now) = (fields(of: old), fields(of: new))
        var keys = was.map(\.key)
        for (key, _) in now where !keys.contains(key) { keys.append(key) }
        let wasValues = Dictionary(was, uniquingKeysWith: { first, _ in first })
        let nowValues = Dictionary(now, uniquingKeysWith: { first, _ in first })
        let suffix = output.map { " (\($0))" } ?? ""
        return keys.compactMap { key in
            let (from, to) = (wasValues[key], nowValues[key])
            guard from != to else { return nil }
            return RenderReason(kind: kind, output: output, field: prefix + key, from: from, to: to,
                                description: "\(prefix)\(key) \(from ?? unset) → \(to ?? unset)\(suffix)")
        }
    }

    /// The `key=value` pairs of a fingerprint line, in order, after its first two words
    /// (`output mp4`, `transition 0`). Values may hold spaces (`spring(damping: 0.8, …)`): a
    /// pair ends where the next word of the form `key=` begins.
    static func fields(of line: String) -> [(key: String, value: String)] {
        var pairs: [(key: String, value: String)] = []
        for word in line.split(separator: " ", omittingEmptySubsequences: false).dropFirst(2) {
            if let equals = word.firstIndex(of: "="), equals > word.startIndex,
               word[..<equals].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) {
                pairs.append((String(word[..<equals]), String(word[word.index(after: equals)...])))
            } else if !pairs.isEmpty {
                pairs[pairs.count - 1].value += " " + word
            }
        }
        return pairs
    }
}

extension RenderReason {
    /// The reason as the report and the JSON log give it: its kind and sentence, and the
    /// field, values and output it names.
    package var json: [String: Any] {
        var fields: [String: Any] = ["kind": kind.rawValue, "text": description]
        if let output { fields["output"] = output }
        if let field { fields["field"] = field }
        if let from { fields["from"] = from }
        if let to { fields["to"] = to }
        return fields
    }
}
