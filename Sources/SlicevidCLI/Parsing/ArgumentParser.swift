// A small argument parser in the shape of swift-argument-parser: a command declares its
// options once, and both parsing and `--help` are generated from that declaration.

import Foundation
import Slicevid

/// One option a command accepts.
struct OptionSpec {
    /// Canonical long name without dashes (`output`); parsed values are keyed by it.
    let name: String
    /// A one-letter alias (`o` for `-o`), if any.
    var short: Character?
    /// The placeholder shown in help (`PATH`); nil for a flag that takes no value.
    var valueName: String?
    /// The help text, made when shown: some (the still formats libheif decodes) cost a library
    /// load that a plain run should not pay.
    var help: String { helpText() }
    private let helpText: @Sendable () -> String
    /// May be given more than once (values accumulate).
    var repeatable = false
    /// What the value is, so shell completions can offer the right words.
    var kind: ValueKind

    init(_ name: String, short: Character? = nil, value: String? = nil, kind: ValueKind = .text, repeatable: Bool = false,
         help: @autoclosure @escaping @Sendable () -> String) {
        self.name = name
        self.short = short
        self.valueName = value
        self.kind = kind
        self.helpText = help
        self.repeatable = repeatable
    }
}

extension OptionSpec {
    /// The help's first sentence, for the one-line descriptions of shell completions. A
    /// sentence ends at a full stop before a capital, so "e.g. 1920x1080" does not end one.
    var summary: String {
        let sentence = help.range(of: #"\. (?=[A-Z])"#, options: .regularExpression).map { String(help[..<$0.lowerBound]) } ?? help
        return sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence
    }

    /// The ways to write the option on a command line: `-o` (if it has a short name) and `--output`.
    var spellings: [String] { (short.map { ["-\($0)"] } ?? []) + ["--" + name] }
}

/// What a command line said. Options are looked up by their declarations, never by a name
/// typed again, so a misspelt lookup cannot compile.
struct ParsedArguments {
    private var values: [String: [String]] = [:]
    var positionals: [String] = []

    /// The last value of `option`, if given.
    func value(_ option: OptionSpec) -> String? { values[option.name]?.last }
    /// Every value of a repeatable option.
    func all(_ option: OptionSpec) -> [String] { values[option.name] ?? [] }
    /// Whether `option` was given.
    func has(_ option: OptionSpec) -> Bool { values[option.name] != nil }
    /// The long names of every option given, for messages that say where a value came from.
    var given: Set<String> { Set(values.keys) }

    fileprivate mutating func record(_ option: OptionSpec, _ value: String) {
        values[option.name, default: []].append(value)
    }
}

/// A command line that could not be understood (exit code 64).
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Declarations shared by every command: name, summary, options.
struct CommandSpec {
    let name: String
    let abstract: String
    let usage: String
    /// The command's options, `--help` last.
    let options: [OptionSpec]
    var discussion: String
    /// What the positional arguments are, by position; the last kind repeats.
    var positionals: [ValueKind]

    /// Declares a command; `-h, --help` is added to `options`, as every command takes it.
    init(name: String, abstract: String, usage: String, options: [OptionSpec], discussion: String = "",
         positionals: [ValueKind] = []) {
        self.name = name
        self.abstract = abstract
        self.usage = usage
        self.options = options + [SharedOptions.help]
        self.discussion = discussion
        self.positionals = positionals
    }

    /// Parses `arguments` (without the command name itself).
    /// - Throws: `UsageError` for an unknown option, a missing value or a repeated one-off option.
    func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" { onlyPositionals = true; continue }
            if !argument.hasPrefix("--"), argument.count > 2 {
                try parseCluster(argument, arguments: arguments, index: &index, into: &parsed)
                continue
            }
            var inlineValue: String?
            var key = argument
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                key = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = find(key) else {
                throw UsageError("unknown option \(InputText.quoted(key))\(Suggestion.phrase(for: key, among: options.flatMap(\.spellings))); see 'slicevid \(name) --help'")
            }
            try record(option, inlineValue: inlineValue, arguments: arguments, index: &index, into: &parsed)
        }
        return parsed
    }

    /// Short options written together, as getopt reads them: `-qf` is `-q -f`, and an option
    /// that takes a value ends the cluster with it (`-j4`, `-qj 4`, `-fo clip.mp4`).
    private func parseCluster(_ cluster: String, arguments: [String], index: inout Int,
                              into parsed: inout ParsedArguments) throws(UsageError) {
        var letters = Substring(cluster.dropFirst())
        while let letter = letters.first {
            letters = letters.dropFirst()
            guard let option = find("-" + String(letter)) else {
                throw UsageError("unknown option \(InputText.quoted("-" + String(letter))) in \(InputText.quoted(cluster)); see 'slicevid \(name) --help'")
            }
            if option.valueName != nil {
                try record(option, inlineValue: letters.isEmpty ? nil : String(letters), arguments: arguments,
                           index: &index, into: &parsed)
                return
            }
            try record(option, inlineValue: nil, arguments: arguments, index: &index, into: &parsed)
        }
    }

    /// Records one occurrence of `option`, taking its value from `inlineValue` or the next
    /// argument.
    private func record(_ option: OptionSpec, inlineValue: String?, arguments: [String], index: inout Int,
                        into parsed: inout ParsedArguments) throws(UsageError) {
        let display = "--" + option.name
        var value = ""
        if option.valueName != nil {
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else { throw UsageError("\(display) needs a value (\(option.valueName!))") }
                value = arguments[index]
                index += 1
            }
        } else if inlineValue != nil {
            throw UsageError("\(display) takes no value")
        }
        if !option.repeatable, parsed.has(option), option.valueName != nil {
            throw UsageError("\(display) was given twice")
        }
        parsed.record(option, value)
    }

    private func find(_ key: String) -> OptionSpec? {
        if key.hasPrefix("--") { return options.first { "--" + $0.name == key } }
        if key.count == 2 { return options.first { $0.short.map { "-\($0)" } == key } }
        return nil
    }

    /// `--help` text, generated from the same declarations that parse, wrapped to `width`
    /// columns (the terminal's, 80 when standard output is not one) with each option's help
    /// hanging under its own column.
    func help(width: Int = HelpText.width()) -> String {
        var lines = HelpText.wrapped("OVERVIEW: \(abstract)", width: width) + [""] + HelpText.wrapped("USAGE: \(usage)", width: width)
            + ["", "OPTIONS:"]
        let labels = options.map { option -> String in
            var label = option.short.map { "-\($0), " } ?? "    "
            label += "--" + option.name
            if let value = option.valueName { label += " " + value }
            return label
        }
        let column = min(34, (labels.map(\.count).max() ?? 0) + 2) + 2
        for (option, label) in zip(options, labels) {
            lines += HelpText.entry("  " + label, option.help, column: column, width: width)
        }
        if !discussion.isEmpty { lines += [""] + discussion.components(separatedBy: "\n").flatMap { HelpText.wrapped($0, width: width) } }
        return lines.joined(separator: "\n") + "\n"
    }
}
