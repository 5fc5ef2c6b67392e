// What produced an output, as text and as a hash: a batch re-run compares fingerprints to
// skip work that would give the same bytes, and re-renders exactly the jobs whose inputs,
// settings or slicevid version changed.

import Foundation
import SliceKit
import SliceMedia

/// The facts that decide an output's bytes, one per line, and their SHA-256.
///
/// Lines, in order: `slicevid VERSION`; `image K SHA256` for each still's bytes (its path does
/// not matter, its content and position do), plus ` focus=X,Y` when that image has its own
/// and ` motion=… motion-amount=… motion-easing=…` when it moves its own way;
/// `transition K field=value …` with every spec field of each transition in `SpecField` order
/// and text form; `audio SHA256 stream=… start=… …` for a music bed (its bytes and every
/// setting, not its path); and, for one output,
/// `output FORMAT canvas=LAYOUT` plus its plan as `make --dry-run` prints it (codec, encoder,
/// pixel format, size, frames, quality, speed, …). The lines are kept in the sidecar so a user
/// can see what a fingerprint covers.
package struct Fingerprint: Sendable, Equatable {
    /// The canonical text, one fact a line.
    package let lines: [String]

    /// A job's fingerprint: its stills' hashes and every setting of every transition.
    /// - Parameters:
    ///   - sequence: the job's resolved transitions.
    ///   - imageHashes: SHA-256 (hex) of each still's bytes, in order.
    ///   - version: the slicevid version, so an upgrade re-renders.
    ///   - audio: the music bed's settings and SHA-256 (hex) of its file's bytes, when it has one.
    ///   - row: the values of its feed row that the job uses.
    package init(sequence: SequenceSpec, imageHashes: [String], version: String, audio: (settings: AudioSettings, hash: String)? = nil,
                 row: [JobRow.Value] = []) {
        var lines = ["slicevid \(version)"]
        // An image's own focus (a manifest's per-image "focus") changes its crop, so it counts.
        lines += imageHashes.enumerated().map { index, hash in
            "image \(index) \(hash)" + (sequence.focusOverrides[index].map { " focus=\($0)" } ?? "")
                + (sequence.motionOverrides[index].map { " motion=\($0.kind.rawValue) motion-amount=\($0.amount.shortText) motion-easing=\($0.easing)" } ?? "")
        }
        if let audio {
            lines.append((["audio \(audio.hash)"] + audio.settings.pairs.map { "\($0.key)=\($0.value)" }).joined(separator: " "))
        }
        // A value a format wrote carries what it wrote (`row price "24.99" as "24,99 €"`), so
        // `--plan` can show a change as the clip shows it.
        // A URL in a value (an `image_link`) is held without its credentials: a sidecar shows
        // none, and a token that changes each night changes nothing (its bytes are the image lines).
        lines += row.map { value in
            "row \(value.column) \(Fingerprint.rowValue(RemoteURL.scrub(value.text)))" + (value.shown.isEmpty ? "" : " as " + value.shown.map(Fingerprint.rowValue).joined(separator: " "))
        }
        for (pair, segment) in sequence.segments.enumerated() {
            let fields = SpecField.allCases.map { "\($0.rawValue)=\(segment.text(of: $0))" }
            lines.append("transition \(pair) " + fields.joined(separator: " "))
        }
        self.lines = lines
    }

    package init(lines: [String]) { self.lines = lines }

    /// The fingerprint of one output of this job: the job's lines plus the output's format,
    /// the layout its frames are rendered in (its own, whatever else the job writes; 0.3
    /// rendered every output in the layout covering them all, so a sidecar that names another
    /// one is of a file with other bytes, and the output renders again) and everything its plan
    /// decided: codec, encoder, pixel format, size, frames, and the quality and speed settings
    /// the codec uses.
    package func output(_ plan: EncodingPlan) -> Fingerprint {
        let decided = plan.summary.dropFirst().map { "\($0.key)=\($0.value)" }
        let line = (["output \(plan.format.rawValue) canvas=\(plan.renderLayout.rawValue)"] + decided).joined(separator: " ")
        return Fingerprint(lines: lines + [line])
    }

    /// The longest value a `row` line holds as it is; a longer one is held as its SHA-256, so a
    /// sidecar stays small whatever a feed's cells hold.
    static let longestRowValue = 256

    /// How a `row` line holds `text`: quoted (`"12,50 €"`), or `sha256:HEX` when it is long.
    static func rowValue(_ text: String) -> String {
        text.utf8.count <= longestRowValue ? quoted(text) : "sha256:" + SHA256.hex(of: text)
    }

    /// The word a marked line carries where its file's hash was.
    static let changedWhileRendering = "changed-while-rendering"

    /// This fingerprint with the hash of each input in `stills` (positions) and of the music
    /// bed (`audio`) replaced by a word no hash equals: a sidecar written from it never
    /// matches a later run, which renders again and names the input that changed. For a file
    /// replaced after it was hashed, when the bytes the frames came from are not known.
    package func marking(stills: [Int], audio: Bool) -> Fingerprint {
        Fingerprint(lines: lines.map { line in
            var words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            if words.count >= 3, words[0] == "image", let index = Int(words[1]), stills.contains(index) {
                words[2] = Self.changedWhileRendering
            } else if audio, words.count >= 2, words[0] == "audio" {
                words[1] = Self.changedWhileRendering
            } else {
                return line
            }
            return words.joined(separator: " ")
        })
    }

    /// `text` as a JSON string literal: quotes, backslashes and every character a line or a
    /// terminal would act on escaped, so a value with line breaks stays on its line.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where InputText.needsEscape(scalar):
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// The text of a string `quoted` wrote; nil when `literal` is not one.
    static func unquoted(_ literal: some StringProtocol) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(literal.utf8), options: [.fragmentsAllowed])) as? String
    }

    /// The words of a `row` line's value, `"24.99" as "24,99 €"`: each a string `quoted` wrote,
    /// a `sha256:` word, or `as`. A quoted word ends at its first quote not escaped.
    static func rowWords(_ text: Substring) -> [Substring] {
        var words: [Substring] = []
        var rest = text
        while let first = rest.first {
            if first == " " {
                rest = rest.dropFirst()
                continue
            }
            var end = rest.index(after: rest.startIndex)
            if first == "\"" {
                var escaped = false
                while end < rest.endIndex, escaped || rest[end] != "\"" {
                    escaped = !escaped && rest[end] == "\\"
                    end = rest.index(after: end)
                }
                end = end < rest.endIndex ? rest.index(after: end) : end
            } else {
                end = rest.firstIndex(of: " ") ?? rest.endIndex
            }
            words.append(rest[..<end])
            rest = rest[end...]
        }
        return words
    }

    /// SHA-256 of the lines (each ending in a newline), as 64 hex digits.
    package var value: String { SHA256.hex(of: lines.map { $0 + "\n" }.joined()) }
}
