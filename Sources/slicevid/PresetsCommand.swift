// `slicevid presets`: list the presets, or print one fully resolved as JSON.

import SliceKit
import SlicePipeline

/// Lists and shows presets.
enum PresetsCommand {
    static let spec = CommandSpec(
        name: "presets",
        abstract: "List presets, or print one (fully resolved) as JSON to copy and edit.",
        usage: "slicevid presets [show NAME|FILE]",
        options: [OptionSpec("help", short: "h", help: "Show this help.")])

    static func run(_ arguments: ParsedArguments) -> ExitCode {
        let words = arguments.positionals
        switch words.first {
        case nil:
            let width = Preset.builtIn.map(\.name.count).max() ?? 0
            for preset in Preset.builtIn {
                Console.shared.output(preset.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + preset.summary + "\n")
            }
            return .success
        case "show" where words.count == 2:
            do {
                Console.shared.output(try PresetLibrary.load(words[1]).json)
                return .success
            } catch {
                Console.shared.error("slicevid: error: \(error.message)\n")
                return ExitCode(error.category)
            }
        default:
            Console.shared.error("slicevid: error: usage: \(spec.usage)\n")
            return .usage
        }
    }
}

import Foundation
