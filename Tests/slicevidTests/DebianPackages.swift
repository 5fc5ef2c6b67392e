// This machine's Debian packages as dpkg records them: which are installed, what each depends on
// and provides, and which package owns a file. InstallStepsTests asks it whether a file the code
// or the suite needs arrives with what `make demo` and `make test` install on a fresh machine.

import Foundation

/// The installed packages (dpkg-query) and what a fresh machine holds after installing some.
struct DebianPackages {
    /// One installed package's record.
    struct Record {
        /// Whether debootstrap's minbase installs it on every Debian machine: Essential, of
        /// priority required, or apt.
        var isBase: Bool
        /// Its Pre-Depends and Depends, each a list of alternatives (names only).
        var dependencies: [[String]]
    }

    /// Every installed package by name (architecture left off).
    let records: [String: Record]
    /// A virtual package's installed providers.
    let providers: [String: [String]]

    /// Reads dpkg's database.
    static func installed() throws -> DebianPackages {
        let format = "${db:Status-Abbrev}\t${Package}\t${Essential}\t${Priority}\t${Pre-Depends}\t${Depends}\t${Provides}\n"
        let listing = try Self.run("/usr/bin/dpkg-query", ["-W", "-f", format])
        var records: [String: Record] = [:], providers: [String: [String]] = [:]
        for line in listing.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            // Only packages whose files are there ("ii"), not those removed but for their configuration.
            guard fields.count == 7, fields[0].hasPrefix("ii") else { continue }
            let name = fields[1]
            let record = Record(isBase: fields[2] == "yes" || fields[3] == "required" || name == "apt",
                                dependencies: Self.groups(fields[4]) + Self.groups(fields[5]))
            records[name] = record
            for provided in Self.groups(fields[6]).compactMap(\.first) { providers[provided, default: []].append(name) }
        }
        return DebianPackages(records: records, providers: providers)
    }

    /// `a (>= 1), b:any | c` → [["a"], ["b", "c"]].
    static func groups(_ field: String) -> [[String]] {
        field.split(separator: ",").map { group in
            group.split(separator: "|").compactMap { alternative in
                alternative.split(separator: " ").first.map { String($0.split(separator: ":").first ?? $0) }
            }
        }.filter { !$0.isEmpty }
    }

    /// What a machine holds after `apt-get install --no-install-recommends names` on top of
    /// Debian's base: the names, the base packages and everything they depend on. Of a
    /// dependency's alternatives apt takes the first on a fresh machine, so only the first is
    /// followed (a virtual one through its installed providers); a need that this machine meets
    /// through a later alternative is one a fresh machine may not meet.
    func closure(of names: Set<String>) -> Set<String> {
        var held = names.union(records.filter(\.value.isBase).keys)
        var queue = Array(held)
        while let name = queue.popLast() {
            for group in records[name]?.dependencies ?? [] {
                let first = group[0]
                let picked = records[first] != nil ? [first] : providers[first] ?? []
                for package in picked where held.insert(package).inserted { queue.append(package) }
            }
        }
        return held
    }

    /// The packages owning each path (`dpkg -S`), or an empty set. dpkg records a file under the
    /// name its package shipped it with, which since /usr was merged may be the /lib twin of a
    /// /usr/lib path (or the other way round), and a link's target may be the file shipped; each
    /// of those is asked too.
    static func owners(of paths: [String]) throws -> [String: Set<String>] {
        let candidates = Dictionary(uniqueKeysWithValues: Set(paths).map { path in (path, Self.aliases(of: path)) })
        let asked = Set(candidates.values.joined()).sorted()
        guard !asked.isEmpty else { return [:] }
        // dpkg -S exits 1 when some path belongs to no package, and says so on stderr.
        let listing = try Self.run("/usr/bin/dpkg-query", ["-S"] + asked, acceptingStatus: [0, 1])
        var byFile: [String: Set<String>] = [:]
        for line in listing.split(separator: "\n") where !line.hasPrefix("diversion by ") {
            guard let colon = line.range(of: ": ") else { continue }
            let packages = line[..<colon.lowerBound].split(separator: ",").map {
                String($0.trimmingCharacters(in: .whitespaces).split(separator: ":").first ?? "")
            }
            byFile[String(line[colon.upperBound...]), default: []].formUnion(packages)
        }
        return candidates.mapValues { names in names.reduce(into: Set<String>()) { $0.formUnion(byFile[$1] ?? []) } }
    }

    /// `path`, its target when it is a link, and the /usr-merged twin of each.
    static func aliases(of path: String) -> [String] {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return Array(Set([path, resolved].flatMap { name -> [String] in
            for top in ["/lib", "/bin", "/sbin", "/lib64"] {
                if name.hasPrefix(top + "/") { return [name, "/usr" + name] }
                if name.hasPrefix("/usr" + top + "/") { return [name, String(name.dropFirst(4))] }
            }
            return [name]
        })).sorted()
    }

    /// Runs `tool` with a clean make environment and returns its stdout; throws on another status.
    static func run(_ tool: String, _ arguments: [String], in folder: String = DocPage.root,
                    acceptingStatus: Set<Int32> = [0]) throws -> String {
        // MAKEFLAGS from an enclosing `make test` (its jobserver, -s) must not reach a `make -n`.
        let result = try CLI.run(arguments, in: folder, executable: tool,
                                 environment: ["MAKEFLAGS": nil, "MFLAGS": nil, "MAKELEVEL": nil, "LC_ALL": "C"])
        guard acceptingStatus.contains(result.status), !result.signalled else {
            throw HarnessError("\(tool) \(arguments.prefix(4).joined(separator: " ")) … ended with \(result)")
        }
        return result.stdout
    }
}
