// Reading values out of a manifest's JSON with errors that name the manifest, the job and the
// field: "campaign.json: job 'reel': slices: '-3' is not valid; expected …".

import Foundation
import SliceKit
import SliceMedia
import SlicePipeline

/// A place in a manifest (the defaults, or one job) and the checks shared by every place.
package struct ManifestReader {
    /// The manifest path as given.
    let manifest: String
    /// `defaults`, `job 'id'` or `jobs[3]`; nil at the top level.
    let place: String?

    /// Output settings a manifest may give, in the defaults or per job: the encoding flags'
    /// names (`crf`, `encoder-preset`, `codec`, `pix-fmt`, …), read by the same table.
    static let outputKeys = OutputOption.allCases.map(\.rawValue)

    /// How errors name a job: `job 'teaser'`, the id quoted (cut short and escaped) as any
    /// value from the file is.
    package static func place(ofJob id: String) -> String { "job \(InputText.quoted(id))" }

    /// A usage error at `field` of this place.
    func error(_ field: String?, _ message: String) -> SlicevidError {
        SlicevidError(.usage, ErrorText(([manifest, place, field].compactMap { $0 } + [message]).joined(separator: ": ")))
    }

    /// `error` (from a value this place gave) at `field` of this place, in the manifest's words.
    func error(_ field: String?, _ error: SlicevidError) -> SlicevidError {
        SlicevidError(error.category, ErrorText(([manifest, place, field].compactMap { $0 } + [error.message(ManifestWording())]).joined(separator: ": ")))
    }

    /// Refuses keys outside `accepted`, listing what is accepted.
    /// - Parameter parent: the field holding `object` (`images[2]`), if it is nested.
    func refuseUnknownKeys(_ object: [String: Any], accepted: [String], in parent: String? = nil) throws(SlicevidError) {
        if let unknown = object.keys.sorted().first(where: { !accepted.contains($0) }).map(InputText.excerpt) {
            throw error(parent.map { "\($0).\(unknown)" } ?? unknown, "unknown field; accepted: \(accepted.joined(separator: ", "))")
        }
    }

    /// `spec` with the spec fields in `fields` applied, checked by the preset reader so the
    /// manifest accepts exactly what a preset file accepts, with the same messages.
    func apply(_ fields: [String: Any], to spec: TransitionSpec, at field: String? = nil) throws(SlicevidError) -> TransitionSpec {
        guard !fields.isEmpty else { return spec }
        let source = ([manifest, place, field].compactMap { $0 }).joined(separator: ": ")
        do {
            // The values came from JSONSerialization, so they serialise back unchanged.
            let data = try JSONSerialization.data(withJSONObject: fields)
            return try Preset(json: data, name: "", source: source, base: spec).spec
        } catch let error as PresetError {
            throw SlicevidError(.usage, error.text)
        } catch {
            throw self.error(field, "cannot be read (\(error))")
        }
    }

    /// `base` with the output settings of `object` applied. Values are checked for form here,
    /// and against each output's codec (a crf's range, a pixel format) when the job is planned.
    func encoder(_ object: [String: Any], base: EncoderSettings) throws(SlicevidError) -> EncoderSettings {
        var own = EncoderSettings()
        for option in OutputOption.allCases {
            guard let value = object[option.rawValue] else { continue }
            let text: String
            if let string = value as? String {
                text = string
            } else if let number = SpecField.jsonNumberText(value) {
                text = number
            } else {
                throw error(option.rawValue, "wrong type: expected \(option.accepted)")
            }
            do {
                try own.set(option, to: text)
            } catch {
                throw self.error(option.rawValue, error.message)
            }
        }
        if own.crf != nil && own.bitrate != nil {
            throw error("bitrate", "crf and bitrate are two ways to set quality; give one")
        }
        // A job's crf replaces the defaults' bitrate and the other way round.
        return base.overridden(by: own)
    }

    /// A number of seconds, 0…3600 like every hold.
    func seconds(_ value: Any, field: String) throws(SlicevidError) -> Double {
        let most = TransitionSpec.maximumSeconds
        guard let text = SpecField.jsonNumberText(value) else { throw error(field, "expected a number of seconds, 0…\(Int(most))") }
        guard let seconds = Double(decimal: text), (0...most).contains(seconds) else {
            throw error(field, "\(InputText.quoted(text)) is out of range; seconds 0…\(Int(most))")
        }
        return seconds
    }
}
