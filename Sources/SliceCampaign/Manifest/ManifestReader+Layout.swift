// A manifest's cards: `layout` (a layout file, relative to the manifest, or a URL), `vars` (values for its
// placeholders) and `safe-zone`, in the defaults and in each job: a job's layout and safe zone
// replace the defaults', its vars are added to theirs (its own win).

import Foundation
import SliceKit
import SlicePipeline
import Synchronization

/// Layout files read while one manifest is read, by absolute path (or URL).
final class LayoutCache: Sendable {
    private let read = Mutex<[String: Result<Layout, LayoutError>]>([:])

    func load(_ path: String, fetch: LayoutFetch?) throws(LayoutError) -> Layout {
        if let known = read.withLock({ $0[path] }) { return try known.get() }
        let result = Result { () throws(LayoutError) in try Layout.load(path: path, fetch: fetch) }
        read.withLock { $0[path] = result }
        return try result.get()
    }
}

/// A job's layout settings, as the defaults or the job give them.
struct ManifestCards: Sendable {
    var layout: Layout?
    var variables: [String: String] = [:]
    var safeZone: SafeZone.Choice = .fromLayout

    /// Keys a job or the defaults take for cards.
    static let keys = ["layout", "vars", "safe-zone"]
}

extension ManifestReader {
    /// `base` with the cards settings of `object` applied over it.
    /// - Throws: `SlicevidError` naming the manifest, the place and the field: `.usage` for a bad
    ///   value or layout file, `.inputMissing` for a layout file that is not there.
    func cards(_ object: [String: Any], over base: ManifestCards, context: ManifestContext) throws(SlicevidError) -> ManifestCards {
        var cards = base
        if let value = object["layout"] {
            guard let path = value as? String, !path.isEmpty else { throw error("layout", "expected a layout file's path") }
            do {
                cards.layout = try context.layout(context.absolute(path))
            } catch {
                throw SlicevidError(error.isMissing ? .inputMissing : .usage,
                                    ErrorText(([manifest, place, "layout"].compactMap { $0 } + [error.text.description]).joined(separator: ": ")))
            }
        }
        if let value = object["vars"] {
            guard let values = value as? [String: Any] else { throw error("vars", "expected an object of names and their values") }
            for name in values.keys.sorted() {
                guard Placeholders.isName(name) else {
                    throw error("vars.\(InputText.excerpt(name))", "not a name (letters, digits, _ and -, starting with a letter or _)")
                }
                let item = values[name]!
                if let text = item as? String {
                    cards.variables[name] = text
                } else if let number = SpecField.jsonNumberText(item) {
                    cards.variables[name] = number
                } else {
                    throw error("vars.\(name)", "expected a string or a number")
                }
            }
        }
        if let value = object["safe-zone"] {
            guard let choice = SafeZone.Choice(json: value) else {
                throw error("safe-zone", "expected \(SafeZone.acceptedInFiles)")
            }
            cards.safeZone = choice
        }
        return cards
    }
}

extension ManifestJob {
    /// The layout its cards draw, nil without one.
    package var layout: Layout? {
        get { cards.layout }
        set { cards.layout = newValue }
    }

    /// The values its layout's placeholders fill from: its variables, the cards' own over them.
    package var layoutValues: [String: String] { variables.merging(cards.variables) { _, own in own } }

    /// Refuses a value its layout would place in an image's path that the path rule refuses
    /// (`logos/{brand}.png` with a brand of `../../private/x`), and one its formats cannot write
    /// (`{price|currency:EUR}` with a price of `24,99`), as the manifest is read, as a value in
    /// `images` is: a feed's data never names a picture outside the layout's folders, and a bad
    /// cell is named by its place in the feed. Other layout problems (a variable with no value,
    /// a safe zone) are the job's, at its plan.
    /// - Parameter origins: where each value came from (`products.csv:7:3, column price`).
    /// - Returns: what its formats wrote, by the name whose value they wrote.
    /// - Throws: `SlicevidError(.usage)` naming the job, the layout and the layer.
    func checkLayoutValues(reader: ManifestReader, origins: [String: String]) throws(SlicevidError) -> [String: [String]] {
        guard let layout = cards.layout else { return [:] }
        let values = variables.merging(cards.variables) { _, own in own }
        var shown: [String: [String]] = [:]
        for layer in layout.layers(forWidth: spec.width, height: spec.height).layers {
            let kind = if case .image = layer.content { "image" } else { "text" }
            let place = "\(InputText.quoted(layout.file)): \(layer.name): \(kind)"
            do {
                switch layer.content {
                case .image(let path): _ = try Placeholders.fill(path: path, values: values)
                case .text(let text):
                    _ = try PlaceholderTemplate(parsing: text.template).fill(value: { reference throws(Placeholders.Failure) -> String in
                        guard let value = values[reference.name] else { throw .missing(reference.name) }
                        return value
                    }, refusing: { $0 }, formatted: { name, text in
                        if !(shown[name]?.contains(text) ?? false) { shown[name, default: []].append(text) }
                    })
                }
            } catch .path(let placeholder, let value, let problem) {
                throw reader.error("layout", "\(place): \(InputText.excerpt(placeholder)) is \(InputText.quoted(value)): \(problem)")
            } catch .value(let placeholder, let name, let value, let locale, let problem) {
                // A var's own value came from the manifest; a column's or matrix value's from its origin.
                let origin = cards.variables[name] == nil ? origins[name] : nil
                throw reader.error("layout", "\(place): " + JobPlaceholders.valueProblem(placeholder: placeholder, value: value, origin: origin,
                                                                                              locale: locale, problem: problem))
            } catch .locale(let placeholder, let locale, let problem) {
                throw reader.error("layout", "\(place): " + Placeholders.problem(.locale(placeholder: placeholder, locale: locale, problem: problem)))
            } catch {
                continue
            }
        }
        return shown
    }

    /// The names its layout's layers use at its frame size (the variant it draws), nested
    /// placeholders filled with its variables: what decides which vars and feed columns reach
    /// the clip.
    var layoutNames: [String] {
        guard let layout = cards.layout else { return [] }
        let values = variables.merging(cards.variables) { _, own in own }
        var names: [String] = []
        for layer in layout.layers(forWidth: spec.width, height: spec.height).layers {
            let template: String
            switch layer.content {
            case .text(let text): template = text.template
            case .image(let path): template = path
            }
            guard let parsed = try? PlaceholderTemplate(parsing: template) else { continue }
            names += parsed.names(with: values).filter { !names.contains($0) }
        }
        return names
    }
}
