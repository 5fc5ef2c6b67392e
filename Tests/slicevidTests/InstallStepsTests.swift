// The README promises that `make demo` and `make test` work on a fresh Debian 12 machine with
// Swift 6: every package the build, slicevid and the suite need must be one the Makefile
// installs (or one they depend on, or one the machine starts with). `make fresh-check` proves
// it in a real fresh root in most of an hour; this is the check every `make test` can afford.
// It fails on the mistake that made a fresh machine fail 81 tests: DEV_PACKAGES expanded
// before FONT_PACKAGES was defined, so make never installed the default fonts.

import Foundation
import SliceMedia
import Testing

@Suite("make's install steps", .serialized)
struct InstallStepsTests {
    /// What is needed, gathered once for both tests.
    static let needs: Result<[Need], any Error> = Result {
        try SuiteNeeds.all(scripts: try MakeInstalls().scripts)
    }

    /// Why each need is not met on a fresh machine that ran the README's commands with
    /// `makefile`: its file is not on this machine, belongs to no package, or belongs to
    /// packages none of which make installs, depends on or starts with.
    static func unmet(_ needs: [Need], makefile: String = DocPage.root + "/Makefile") throws -> [String] {
        let make = try MakeInstalls(makefile: makefile)
        let packages = try DebianPackages.installed()
        let held = packages.closure(of: make.installed.union(make.given))
        let checked = needs.filter { need in
            !(SuiteNeeds.toolchain.map { need.path.hasPrefix($0 + "/") } ?? false)
        }
        let owners = try DebianPackages.owners(of: checked.map(\.path).filter { $0.hasPrefix("/") })
        return checked.compactMap { need in
            guard need.path.hasPrefix("/"), FileManager.default.fileExists(atPath: need.path) else {
                return "\(need): not on this machine"
            }
            let from = owners[need.path] ?? []
            if from.isEmpty { return "\(need): belongs to no Debian package" }
            if from.isDisjoint(with: held) {
                return "\(need): comes from \(from.sorted().joined(separator: " or ")), which make demo and make test do not install"
            }
            return nil
        }
    }

    @Test("every package the build, slicevid and the suite need is one make demo or make test installs")
    func everyNeedIsInstalled() throws {
        let needs = try Self.needs.get()
        // Each kind of need was found, so the check cannot pass by finding nothing.
        for (kind, example) in [("header", "/libheif/heif.h"), ("libcurl's header", "/curl/curl.h"), ("linked library", "/libavcodec.so"), ("loaded library", "/libpango-1.0.so."),
                                ("font", "/NotoSans-Regular.ttf"), ("program", "/bin/ffmpeg"), ("program on PATH", "/bin/chromium"),
                                ("interpreter", "/bin/python3")] {
            #expect(needs.contains { $0.path.contains(example) }, "no \(kind) like \(example) among the needs")
        }
        let unmet = try Self.unmet(needs)
        #expect(unmet.isEmpty, "\(unmet.count) needs unmet:\n\(unmet.joined(separator: "\n"))")
    }

    @Test("the programs a docs line starts are read as a shell reads them")
    func programsOfADocsLine() {
        #expect(ShellCommands.programs(in: "FOO=1 jq -r '.a | .b' x | sort -u; man -l - && \"$EDITOR\" f || exit") == ["jq", "sort", "man"])
        #expect(ShellCommands.programs(in: "slicevid probe \"$(printf 'a|b'; gzip -c x)\" | wc -l  # cat") == ["slicevid", "gzip", "wc"])
        #expect(ShellCommands.programs(in: "{ printf x; head -c 1 /dev/urandom; } > song.wav 2>&1") == ["head"])
        #expect(ShellCommands.programs(in: "for k in 0 1; do K=$k bash examples/x.sh || exit; done") == ["bash"])
        #expect(ShellCommands.programs(in: "examples/x.sh \"$(date)\" after; x=$(tr a b) mkdir y") == ["date", "mkdir", "tr"])
    }

    @Test("each default font comes from the package DefaultFonts names")
    func defaultFontsComeFromTheirPackages() throws {
        let owners = try DebianPackages.owners(of: DefaultFonts.files.map(\.path))
        for file in DefaultFonts.files {
            #expect(owners[file.path] == [file.debianPackage], "\(file.path): dpkg says \(owners[file.path] ?? []), DefaultFonts says \(file.debianPackage)")
        }
    }

    @Test("a Makefile that would not install a package fails the check, naming what goes missing",
          arguments: [
              ("FONT_PACKAGES defined after DEV_PACKAGES expanded it (the fonts' old bug)", "/NotoSans-Regular.ttf", "fonts-noto-core"),
              ("libheif-dev left out of DEV_PACKAGES", "/libheif/heif.h", "libheif-dev"),
              ("libcurl4-openssl-dev left out of DEV_PACKAGES and the prerequisites", "/curl/curl.h", "libcurl4-openssl-dev"),
              ("libssl-dev left out of DEV_PACKAGES", "/openssl/evp.h", "libssl-dev"),
              ("chromium no longer installed by make test", "/chromium", "chromium"),
              ("jq no longer installed by make test (the docs' jq blocks would be skipped)", "/jq", "jq"),
          ])
    func aMissingPackageIsCaught(change: String, path: String, package: String) throws {
        let original = try String(contentsOfFile: DocPage.root + "/Makefile", encoding: .utf8)
        let changed = try Self.changing(original, change)
        #expect(changed != original)
        try withScratchFolder { folder in
            let makefile = folder + "/Makefile"
            try changed.write(toFile: makefile, atomically: true, encoding: .utf8)
            let unmet = try Self.unmet(try Self.needs.get(), makefile: makefile)
            #expect(unmet.contains { $0.contains(path + " (") && $0.contains(": comes from \(package), ") }, "\(change): \(unmet)")
        }
    }

    /// `makefile` with the named mistake made.
    static func changing(_ makefile: String, _ change: String) throws -> String {
        func replacing(_ old: String, _ new: String) throws -> String {
            try #require(makefile.contains(old), "the Makefile no longer holds \(old)")
            return makefile.replacingOccurrences(of: old, with: new)
        }
        switch change.prefix(while: { $0 != " " }) {
        case "FONT_PACKAGES":
            let definition = String(try #require(makefile.firstMatch(of: /FONT_PACKAGES := [^\n]*\n/)).output)
            let moved = makefile.replacingOccurrences(of: definition, with: "")
            return moved.replacingOccurrences(of: "RELEASE := ", with: definition + "RELEASE := ")
        case "libheif-dev": return try replacing(" libheif-dev ", " ")
        case "libssl-dev": return try replacing(" libssl-dev ", " ")
        case "libcurl4-openssl-dev": return try replacing(" libcurl4-openssl-dev ", " ").replacingOccurrences(of: " libcurl4-openssl-dev ", with: " ")
        case "chromium": return try replacing("\t$(call tool,chromium,chromium)\n", "")
        default: return try replacing("\t$(call tool,jq,jq)\n", "")
        }
    }
}
