// The parser in-process: every flag every command declares parses to its value, combined
// short flags read as getopt reads them, and each refusal names what was wrong. `make`'s
// command lines become the request the render gets.

import Foundation
import SliceKit
import SliceMedia
import SlicePipeline
@testable import SlicevidCLI
import Testing

@Suite("parsing command lines")
struct CommandLineParsingTests {
    /// Every option of every command, with a value when it takes one.
    static let everyOption: [(command: String, option: OptionSpec)] = SlicevidTool.commands.flatMap { command in
        command.spec.options.map { (command.name, $0) }
    }

    @Test("every declared option parses, long and short, to its value")
    func everyOptionParses() throws {
        #expect(Self.everyOption.count > 40, "the command table declares the options")
        for (command, option) in Self.everyOption {
            let spec = try #require(SlicevidTool.command(command)).spec
            let value = option.valueName == nil ? "" : "value-of-\(option.name)"
            for spelling in option.spellings {
                let parsed = try spec.parse(option.valueName == nil ? [spelling] : [spelling, value])
                #expect(parsed.all(option) == [value], "\(command) \(spelling)")
            }
            if option.valueName != nil {
                #expect(try spec.parse(["--\(option.name)=\(value)"]).value(option) == value, "\(command) --\(option.name)=")
            }
        }
    }

    @Test("short flags combine as getopt reads them", arguments: [
        (["-qf"], ["quiet": [""], "force": [""]]),
        (["-fqv", "a.jpg"], ["force": [""], "quiet": [""], "verbose": [""]]),
        (["-j4"], ["jobs": ["4"]]),
        (["-qj", "3"], ["quiet": [""], "jobs": ["3"]]),
        (["-fo", "clip.mp4", "-oclip.webm"], ["force": [""], "output": ["clip.mp4", "clip.webm"]]),
    ])
    func combinedShortFlags(_ arguments: [String], _ expected: [String: [String]]) throws {
        let parsed = try MakeCommand.spec.parse(arguments)
        let given = MakeCommand.spec.options.filter(parsed.has).map { ($0.name, parsed.all($0)) }
        #expect(Dictionary(uniqueKeysWithValues: given) == expected)
        #expect(parsed.positionals == arguments.filter { !$0.hasPrefix("-") && !["3", "clip.mp4"].contains($0) })
    }

    @Test("a command line the spec refuses names what is wrong", arguments: [
        (["--frobnicate"], "unknown option '--frobnicate'"),
        (["-qx"], "unknown option '-x' in '-qx'"),
        (["-x"], "unknown option '-x'"),
        (["--size"], "--size needs a value (WxH)"),
        (["-qj"], "--jobs needs a value (N)"),
        (["--force=yes"], "--force takes no value"),
        (["--size", "64x36", "--size", "32x18"], "--size was given twice"),
        (["-j2", "-j", "3"], "--jobs was given twice"),
    ])
    func refusals(_ arguments: [String], _ message: String) {
        #expect(throws: UsageError.self) { try MakeCommand.spec.parse(arguments) }
        do {
            _ = try MakeCommand.spec.parse(arguments)
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description)")
        }
    }

    @Test("after --, everything is a still, even what looks like a flag")
    func doubleDash() throws {
        let parsed = try MakeCommand.spec.parse(["-f", "--", "-qf", "--size"])
        #expect(parsed.has(MakeCommand.Option.force) && !parsed.has(MakeCommand.Option.quiet) && parsed.positionals == ["-qf", "--size"])
    }

    @Test("make's flags become the request the render gets")
    func makeRequest() throws {
        let parsed = try MakeCommand.spec.parse([
            "--from", "a.jpg", "--to", "b.png", "-fo", "out.mp4", "-o", "out.webm:crf=30", "--size", "640x360",
            "--fps", "30000/1001", "--slices", "24px", "--seed", "7", "--crf", "20", "-j2",
        ])
        let request = try MakeCommand.request(from: parsed)
        #expect(request.stills == .pair(from: "a.jpg", to: "b.png"))
        var crf30 = EncoderSettings()
        try crf30.set(.crf, to: "30")
        #expect(request.outputs == [try .file("out.mp4"), try .file("out.webm", settings: crf30)] && request.force && request.renderThreads == 2)
        #expect(request.spec.width == 640 && request.spec.height == 360 && request.spec.seed == 7)
        #expect(request.spec.frameRate.description == "30000/1001")
        var expected = EncoderSettings()
        try expected.set(.crf, to: "20")
        #expect(request.encoder == expected)
        #expect(!request.verbose)
    }

    @Test("--verbose is the run's own: it reaches each output's plan, not a process-wide switch")
    func verboseIsPerRun() throws {
        let folder = NSTemporaryDirectory()
        for (flags, verbose) in [([String](), false), (["-v"], true)] {
            let request = try MakeCommand.request(from: try MakeCommand.spec.parse(flags + ["-o", folder + "slicevid-never.mp4"]))
            #expect(try MakeJob.plan(request).outputs.map(\.verbose) == [verbose])
        }
    }

    /// The error make's request refuses `arguments` with; nil, with an issue recorded, when it
    /// accepts them.
    private func refusal(_ arguments: [String]) throws -> SlicevidError? {
        let parsed = try MakeCommand.spec.parse(arguments)
        do {
            _ = try MakeCommand.request(from: parsed)
            Issue.record("\(arguments) was accepted")
            return nil
        } catch {
            return error
        }
    }

    @Test("every transition field's bad value is refused naming its flag", arguments: SpecField.allCases)
    func badFieldValue(_ field: SpecField) throws {
        guard let error = try refusal(["--\(field.rawValue)", "not a value;\u{1B}"]) else { return }
        #expect(error.category == .usage)
        #expect(error.message.contains("--\(field.rawValue)") || error.message.hasPrefix(field.rawValue), "\(error.message)")
        #expect(!error.message.contains("\u{1B}"), "control characters are escaped")
    }

    @Test("every encoding flag's bad value is refused naming its flag", arguments: OutputOption.allCases)
    func badEncodingValue(_ option: OutputOption) throws {
        guard let error = try refusal(["--\(option.rawValue)", "not a value;"]) else { return }
        #expect(error.category == .usage && error.message.hasPrefix("--\(option.rawValue): "), "\(error.message)")
    }

    @Test("--jobs outside its range is refused naming it", arguments: ["0", "-1", "100000", "four"])
    func badJobs(_ value: String) throws {
        guard let error = try refusal(["--jobs", value]) else { return }
        #expect(error.category == .usage && error.message.hasPrefix("--jobs: "), "\(error.message)")
    }

    @Test("reading and validating refuse, before anything runs, what each command cannot take", arguments: [
        ("make", ["--json"], "--json: only with --dry-run"),
        ("make", ["--log-format", "xml"], "--log-format: 'xml' is not valid"),
        ("batch", [], "batch needs a manifest"),
        ("batch", ["m.json", "--check", "--plan"], "--plan: --check and --plan"),
        ("probe", [], "probe needs a file"),
        ("help", ["render"], "help takes one command name"),
        ("completions", ["tcsh"], "completions needs one shell"),
        ("man", ["extra"], "man takes no arguments"),
        ("presets", ["show"], "usage: slicevid presets"),
    ])
    func validation(_ name: String, _ arguments: [String], _ message: String) throws {
        let commands: [String: any ParsableCommand.Type] = [
            "make": MakeCommand.self, "batch": BatchCommand.self, "probe": ProbeCommand.self, "help": HelpCommand.self,
            "completions": CompletionsCommand.self, "man": ManCommand.self, "presets": PresetsCommand.self,
        ]
        let command = try #require(commands[name])
        #expect(command.spec.name == name)
        let parsed = try command.spec.parse(arguments)
        do {
            try command.init(parsed).validate()
            Issue.record("\(name) \(arguments) was accepted")
        } catch {
            #expect(error.category == .usage && error.message.hasPrefix(message), "\(error.message)")
        }
    }
}
