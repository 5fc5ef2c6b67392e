// What the Makefile puts on a fresh machine, read from make itself: every `apt-get install` of
// the recipes `make demo` and `make test` would run (`make -n`, so each variable has the value
// make gives it at that point, ordering mistakes included), and FRESH_MACHINE, what the machine
// has before them.

import Foundation

/// The packages a machine has once the README's two commands ran, by the Makefile's word.
struct MakeInstalls {
    /// Packages the recipes name after `apt-get install`.
    let installed: Set<String>
    /// FRESH_MACHINE: make and the Swift toolchain's prerequisites.
    let given: Set<String>
    /// Scripts of the repository the recipes run (`packaging/run-suite.py`), whose interpreters
    /// the machine needs too.
    let scripts: [String]

    /// Reads `makefile` (the repository's unless another is given) with `make -n demo test`.
    init(makefile: String = DocPage.root + "/Makefile") throws {
        let dryRun = try DebianPackages.run("/usr/bin/make", ["-n", "-f", makefile, "demo", "test"])
        installed = Self.packages(installedBy: dryRun)
        let fresh = try DebianPackages.run("/usr/bin/make", ["-s", "-f", makefile, "print-FRESH_MACHINE"])
        given = Set(fresh.split(whereSeparator: \.isWhitespace).map(String.init))
        scripts = Set(dryRun.matches(of: /(?:^|\s)(packaging\/[A-Za-z0-9_.-]+)/).map { String($0.output.1) }).sorted()
    }

    /// The words after each `apt-get install` up to the end of the command, options left out.
    static func packages(installedBy recipes: String) -> Set<String> {
        var packages: Set<String> = []
        for match in recipes.matches(of: /apt-get\s+install\s+([^;&|>}\n\\]*)/) {
            packages.formUnion(match.output.1.split(separator: " ").filter { !$0.hasPrefix("-") }.map(String.init))
        }
        return packages
    }
}
