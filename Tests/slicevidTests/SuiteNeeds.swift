// Every file the build, slicevid and the suite take from the machine, found where the code names
// it rather than listed by hand: the headers the C targets include, the libraries they link,
// the libraries slicevid opens at run time (read from this process's own mappings once it has
// opened them), the fonts, and the programs the tests, the docs' commands and `make test` run.

import CAVFilter
import CHeif
import CText
import Foundation
import SliceMedia

/// A file some part of the project needs, and which part (for the failure message).
struct Need: Hashable, Sendable, CustomStringConvertible {
    let path: String
    let reason: String

    var description: String { "\(path) (\(reason))" }
}

/// The needs, gathered from the repository's sources and this process.
enum SuiteNeeds {
    static let root = DocPage.root
    #if arch(arm64)
    static let multiarch = "aarch64-linux-gnu"
    #else
    static let multiarch = "x86_64-linux-gnu"
    #endif

    /// The Swift toolchain's folder (`/opt/swift`): where this process's Swift runtime comes from.
    /// The README names the toolchain as a prerequisite, so what it holds is not make's to install.
    static let toolchain: String? = mappedFiles().lazy.compactMap { path in
        path.range(of: "/usr/lib/swift/linux/").map { String(path[..<$0.lowerBound]) }
    }.first

    /// Every need, each path once (the first reason kept).
    static func all(scripts: [String]) throws -> [Need] {
        let needs = try headers() + linkedLibraries() + loadedLibraries() + fonts() + programs(scripts: scripts)
        var seen: Set<String> = []
        return needs.filter { seen.insert($0.path).inserted }
    }

    /// The headers `#include <…>` names in the C targets (and the C programs tests compile), each
    /// where the compiler finds it: Debian's include folders, the toolchain's own (clang's
    /// stddef.h), or a library's folder under them (`pango-1.0/pango/pango.h`).
    static func headers() throws -> [Need] {
        let folders = ["/usr/include/\(multiarch)", "/usr/include"] + clangIncludes()
            + subfolders(of: "/usr/include") + subfolders(of: "/usr/lib/\(multiarch)").map { $0 + "/include" }
        // At a line's start only, so a comment naming `#include <…>` is not one.
        let include = /^\s*#include\s*<([^>]+)>/.anchorsMatchLineEndings()
        return try sourceFiles(under: ["Sources", "Tests"], endings: [".c", ".h", ".swift"]).flatMap { file in
            try String(contentsOfFile: root + "/" + file, encoding: .utf8).matches(of: include).map { match in
                let header = String(match.output.1)
                let found = folders.lazy.map { $0 + "/" + header }.first { FileManager.default.fileExists(atPath: $0) }
                return Need(path: found ?? "<\(header)>", reason: "included by \(file)")
            }
        }
    }

    /// The libraries the C targets link (`link "avcodec"` in a module map, `.linkedLibrary("heif")`
    /// in Package.swift) as the linker finds them, and the pkg-config files Package.swift names.
    static func linkedLibraries() throws -> [Need] {
        let folders = ["/usr/lib/\(multiarch)", "/lib/\(multiarch)", "/usr/lib"]
        var needs: [Need] = []
        let manifest = try String(contentsOfFile: root + "/Package.swift", encoding: .utf8)
        let maps = try sourceFiles(under: ["Sources"], endings: ["module.modulemap"])
        for file in maps + ["Package.swift"] {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            for match in text.matches(of: /(?:\blink\s+"|\.linkedLibrary\(")([A-Za-z0-9_+.-]+)"/) {
                let name = "lib" + match.output.1 + ".so"
                let found = folders.lazy.map { $0 + "/" + name }.first { FileManager.default.fileExists(atPath: $0) }
                needs.append(Need(path: found ?? "<\(name)>", reason: "linked by \(file)"))
            }
        }
        for match in manifest.matches(of: /pkgConfig:\s*"([^"]+)"/) {
            let module = String(match.output.1)
            let folder = (try? DebianPackages.run("/usr/bin/pkg-config", ["--variable=pcfiledir", module]))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            needs.append(Need(path: folder.isEmpty ? "<\(module).pc>" : folder + "/" + module + ".pc", reason: "pkg-config module of Package.swift"))
        }
        return needs
    }

    /// The shared libraries this process has mapped once it has opened Pango, Cairo and
    /// fontconfig, libheif and libavfilter the way slicevid does (dlopen, on first use): those
    /// and everything they pull in, besides what the test binary links.
    static func loadedLibraries() throws -> [Need] {
        guard slicevid_text_load() != 0 else { throw HarnessError("the text libraries did not load: \(String(cString: slicevid_text_error()))") }
        guard slicevid_heif_load() != 0 else { throw HarnessError("libheif did not load: \(String(cString: slicevid_heif_error()))") }
        guard slicevid_avfilter_load() != 0 else { throw HarnessError("libavfilter did not load: \(String(cString: slicevid_avfilter_error()))") }
        return mappedFiles().filter { $0.contains(".so") && ($0.hasPrefix("/usr/") || $0.hasPrefix("/lib")) }
            .map { Need(path: $0, reason: "a library slicevid and its tests load") }
    }

    /// The default font set, and the system fonts the tests name.
    static func fonts() throws -> [Need] {
        let defaults = DefaultFonts.files.map { Need(path: $0.path, reason: "the default font set") }
        let named = try literals(matching: /"(\/usr\/share\/[^"\\]+)"/).map { Need(path: $0.path, reason: "named by \($0.file)") }
        return defaults + named
    }

    /// The programs the tests run by path (`"/usr/bin/ffmpeg"`) or find on PATH (chromium for
    /// ReportPageBrowserTests, a `<!-- test: run if jq -->` block's tool), and the interpreters of
    /// the scripts `make test` runs (`#!/usr/bin/env python3`).
    static func programs(scripts: [String]) throws -> [Need] {
        let byPath = try literals(matching: /"((?:\/usr)?\/s?bin\/[A-Za-z0-9_.+-]+)"/).map { Need(path: $0.path, reason: "run by \($0.file)") }
        let docTools = try DocPage.all().flatMap { page in
            page.blocks.compactMap { block -> Need? in
                guard case .runIf(let tool) = block.marker else { return nil }
                return onPath(tool, reason: "run by \(page.path)'s blocks")
            }
        }
        let interpreters = try scripts.compactMap { script -> Need? in
            let firstLine = try String(contentsOfFile: root + "/" + script, encoding: .utf8).prefix { $0 != "\n" }
            guard let shebang = firstLine.wholeMatch(of: /#!\s*(\S+)(?:\s+(\S+))?.*/) else { return nil }
            let interpreter = shebang.output.1.hasSuffix("/env") ? shebang.output.2.map(String.init) : String(shebang.output.1)
            return interpreter.map { onPath($0, reason: "runs \(script) in make test") }
        }
        return byPath + [onPath("chromium", reason: "ReportPageBrowserTests")] + docTools + interpreters + (try docCommands())
    }

    /// The programs the docs' `run` blocks start (`slicevid man | man -l -` needs man): the first
    /// word of each command of each line, shell words and the repository's own scripts aside.
    static func docCommands() throws -> [Need] {
        try DocPage.all().flatMap { page in
            page.blocks.filter { block in
                if case .run = block.marker { return true }
                if case .runIf = block.marker { return true }
                return false
            }.flatMap { block in
                DocPage.numberedCommands(of: block).flatMap { line, command in
                    ShellCommands.programs(in: command).filter { $0 != "slicevid" }.map { onPath($0, reason: "run by \(page.path):\(line)") }
                }
            }
        }
    }

    /// `tool` as a fresh Debian machine's PATH finds it (or `<tool>` when it does not): Debian's
    /// folders only, not this machine's own additions (a pyenv's python3, a /usr/local build).
    static func onPath(_ tool: String, reason: String) -> Need {
        if tool.hasPrefix("/") { return Need(path: tool, reason: reason) }
        let folders = ["/usr/sbin", "/usr/bin", "/sbin", "/bin"]
        let found = folders.lazy.map { $0 + "/" + tool }.first { FileManager.default.isExecutableFile(atPath: $0) }
        return Need(path: found ?? "<\(tool) on PATH>", reason: reason)
    }

    /// Paths written as string literals in the tests' sources (this file and its peers left out,
    /// which name paths only to look for them).
    static func literals(matching pattern: Regex<(Substring, Substring)>) throws -> [(path: String, file: String)] {
        let own: Set<String> = ["SuiteNeeds.swift", "DebianPackages.swift", "MakeInstalls.swift", "ShellCommands.swift", "InstallStepsTests.swift"]
        return try sourceFiles(under: ["Tests"], endings: [".swift"]).filter { !own.contains(URL(fileURLWithPath: $0).lastPathComponent) }
            .flatMap { file in
                try String(contentsOfFile: root + "/" + file, encoding: .utf8).matches(of: pattern).map { (String($0.output.1), file) }
            }
    }

    /// Files under the repository's `folders` whose names end in one of `endings`, relative to it.
    static func sourceFiles(under folders: [String], endings: [String]) throws -> [String] {
        try folders.flatMap { folder in
            try FileManager.default.subpathsOfDirectory(atPath: root + "/" + folder)
                .filter { path in endings.contains { path.hasSuffix($0) } }.sorted().map { folder + "/" + $0 }
        }
    }

    /// The files this process has mapped (`/proc/self/maps`).
    static func mappedFiles() -> [String] {
        // Read to its end: String(contentsOfFile:) stops at the size stat gives a /proc file.
        let maps = String(decoding: FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        let paths = maps.split(separator: "\n").compactMap { line in line.firstIndex(of: "/").map { String(line[$0...]) } }
        return Array(Set(paths.filter { !$0.hasSuffix(" (deleted)") })).sorted()
    }

    /// The toolchain's clang header folders (`/opt/swift/usr/lib/clang/21/include`).
    static func clangIncludes() -> [String] {
        guard let toolchain else { return [] }
        return subfolders(of: toolchain + "/usr/lib/clang").map { $0 + "/include" }
    }

    /// The folders directly in `folder`.
    static func subfolders(of folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted().map { folder + "/" + $0 }.filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
        }
    }
}
