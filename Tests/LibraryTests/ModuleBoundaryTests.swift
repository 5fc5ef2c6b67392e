// The boundaries Package.swift draws, kept: every import of one of the package's own modules is a
// dependency its target declares. SwiftPM compiles an import of any module already built (a
// dependency's dependency included), so without this a command could reach past the library, or
// the render into a campaign module above it, and still build.

import Foundation
import Testing

@Suite("the package's module boundaries")
struct ModuleBoundaryTests {
    /// The package's root folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL

    /// Each target's name, its folder, and the package targets it declares it may import.
    static func targets() throws -> [(name: String, folder: String, dependencies: Set<String>)] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let target = try Regex(#"\.(target|executableTarget|testTarget|systemLibrary)\(\s*name: "(\w+)"(?:,\s*dependencies: \[([^\]]*)\])?(?:,\s*path: "([^"]+)")?"#)
        return manifest.matches(of: target).map { match in
            let kind = String(match.output[1].substring ?? "")
            let name = String(match.output[2].substring ?? "")
            let dependencies = (match.output[3].substring.map(String.init) ?? "").split(separator: ",")
                .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \n\"")) }.filter { !$0.isEmpty }
            let folder = match.output[4].substring.map(String.init) ?? (kind == "testTarget" ? "Tests/" : "Sources/") + name
            return (name, folder, Set(dependencies))
        }
    }

    /// The package modules the Swift files under `folder` import, with a file importing each.
    static func imports(in folder: String, among modules: Set<String>) throws -> [String: String] {
        let url = root.appendingPathComponent(folder)
        let statement = try Regex(#"^(?:@[\w()]+ )*import (?:(?:struct|enum|class|protocol|func|typealias|var|let) )?(\w+)"#)
        var found: [String: String] = [:]
        for case let file as URL in FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)! where file.pathExtension == "swift" {
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                guard let match = try statement.prefixMatch(in: line), let module = match.output[1].substring.map(String.init),
                      modules.contains(module) else { continue }
                found[module] = file.path.replacingOccurrences(of: root.path + "/", with: "")
            }
        }
        return found
    }

    @Test("every target of Sources imports only the package modules it declares in Package.swift")
    func importsAreDeclared() throws {
        let targets = try Self.targets()
        let modules = Set(targets.map(\.name))
        #expect(modules.isSuperset(of: ["SliceKit", "SlicePipeline", "SliceCampaign", "SliceReports", "SliceBatch", "Slicevid", "SlicevidCLI"]))
        for target in targets where target.folder.hasPrefix("Sources/") {
            for (module, file) in try Self.imports(in: target.folder, among: modules.subtracting([target.name]))
            where !target.dependencies.contains(module) {
                Issue.record("\(file) imports \(module), which \(target.name) does not declare in Package.swift")
            }
        }
    }

    @Test("the command line goes through the library alone, and the render knows no campaign")
    func boundaries() throws {
        let targets = Dictionary(uniqueKeysWithValues: try Self.targets().map { ($0.name, $0.dependencies) })
        #expect(targets["SlicevidCLI"] == ["Slicevid", "CPlatform"])
        for render in ["SliceKit", "SliceMedia", "SlicePipeline"] {
            #expect(targets[render]?.isDisjoint(with: ["SliceCampaign", "SliceReports", "SliceBatch", "Slicevid"]) == true, "\(render)")
        }
        #expect(targets["SliceCampaign"]?.isDisjoint(with: ["SliceReports", "SliceBatch"]) == true)
        #expect(targets["SliceReports"]?.contains("SliceBatch") == false)
    }
}
