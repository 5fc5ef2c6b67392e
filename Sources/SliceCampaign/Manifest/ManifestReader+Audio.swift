// A manifest's `audio`, in the defaults or a job: a path (relative to the manifest), "none", or
// an object with the bed's settings. Values are read by the same code as the flags, so a
// manifest accepts exactly what `make --audio-start` and the rest accept.

import Foundation
import SliceKit
import SlicePipeline

extension ManifestReader {
    /// The fields of an `audio` object, and the setting each one is.
    static let audioFields: [(key: String, option: AudioOption?)] = [
        ("file", .audio), ("stream", nil), ("start", .audioStart), ("loop", .audioLoop), ("fade-in", .audioFadeIn),
        ("fade-out", .audioFadeOut), ("loudness", .loudness), ("volume", .volume),
    ]

    /// `settings` with an `audio` value applied over it.
    /// - Throws: `SlicevidError(.usage)` naming `audio` or `audio.FIELD` and what is accepted.
    func audio(_ value: Any?, over settings: AudioSettings, context: ManifestContext) throws(SlicevidError) -> AudioSettings {
        guard let value else { return settings }
        var audio = settings
        if let path = value as? String {
            if path == "none" { (audio.file, audio.stream) = (nil, nil); return audio }
            try set(.audio, path, in: &audio, field: "audio", context: context)
            return audio
        }
        guard let object = value as? [String: Any] else {
            throw error("audio", "expected a path, \"none\", or an object with \(Self.audioFields.map(\.key).joined(separator: ", "))")
        }
        try refuseUnknownKeys(object, accepted: Self.audioFields.map(\.key), in: "audio")
        for (key, option) in Self.audioFields {
            guard let item = object[key] else { continue }
            let field = "audio.\(key)"
            let text: String
            if let string = item as? String, option == .audio {
                text = string
            } else if let flag = item as? Bool, option == .audioLoop, !(item is String), SpecField.jsonNumberText(item) == nil {
                text = flag ? "true" : "false"
            } else if let number = SpecField.jsonNumberText(item), option != .audio, option != .audioLoop {
                text = number
            } else {
                throw error(field, "wrong type: expected \(option?.accepted ?? "a stream index, 0–1023")")
            }
            if let option {
                try set(option, text, in: &audio, field: field, context: context)
            } else {
                guard let index = Int(text), (0...1023).contains(index) else { throw error(field, "\(InputText.quoted(text)) is not valid; expected a stream index, 0–1023") }
                audio.stream = index
            }
        }
        // As make refuses it, but when the manifest is read rather than when each job runs.
        if audio.loudness != nil && audio.volume != nil {
            throw error("audio", "loudness and volume both set the bed's level (with the defaults' and the preset's audio); give one")
        }
        return audio
    }

    private func set(_ option: AudioOption, _ text: String, in audio: inout AudioSettings, field: String,
                     context: ManifestContext) throws(SlicevidError) {
        do {
            try audio.set(option, to: text)
        } catch {
            throw self.error(field, error.message)
        }
        if option == .audio, let file = audio.file { audio.file = context.absolute(file) }
    }
}
