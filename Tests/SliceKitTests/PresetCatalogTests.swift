// Preset lookup: a path, then each preset folder in order, then the built-ins; the first
// match wins, and an unknown name lists what is available.

import Foundation
import Testing
@testable import SliceKit

@Suite struct PresetCatalogTests {
    /// Two preset folders in a fresh temporary directory: `first` holds house.json and a
    /// spring.json that replaces the built-in; `second` holds another house.json and a broken file.
    final class Folders {
        let root = NSTemporaryDirectory() + "slicevid-catalog-\(UUID().uuidString)"
        var first: String { root + "/first" }
        var second: String { root + "/second" }

        init() throws {
            for folder in [first, second] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            try write(first + "/house.json", #"{"description": "first house", "slices": 10}"#)
            try write(first + "/spring.json", #"{"description": "our spring", "duration": 2}"#)
            try write(second + "/house.json", #"{"description": "second house", "slices": 20}"#)
            try write(second + "/broken.json", #"{"slices": "many"}"#)
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        func write(_ path: String, _ text: String) throws { try text.write(toFile: path, atomically: true, encoding: .utf8) }
    }

    @Test func foldersComeInOrderBeforeBuiltIns() throws {
        let folders = try Folders()
        let catalog = PresetCatalog(directories: [folders.first, folders.second, folders.root + "/missing"])
        #expect(try catalog.load("house").summary == "first house")
        #expect(try catalog.load("spring").spec.duration == 2)
        #expect(try catalog.load("bounce") == Preset.bounce)
        #expect(try PresetCatalog(directories: [folders.second]).load("house").summary == "second house")
        #expect(try PresetCatalog(directories: []).load("spring") == Preset.spring)
    }

    @Test func pathsAreReadAsFiles() throws {
        let folders = try Folders()
        let catalog = PresetCatalog(directories: [])
        let house = try catalog.load(folders.second + "/house.json")
        #expect(house.name == "house" && house.spec.strips == 20)
        #expect(PresetCatalog.isPath("./x") && PresetCatalog.isPath("x.JSON") && !PresetCatalog.isPath("spring"))
        #expect(throws: PresetError(ErrorText(folders.root + "/nope.json: no such preset file, or it cannot be read"))) {
            try catalog.load(folders.root + "/nope.json")
        }
    }

    @Test func aBrokenFileIsAnErrorNotSkipped() throws {
        let folders = try Folders()
        #expect(throws: PresetError(ErrorText(folders.second + "/broken.json: slices: 'many' is not valid; expected number of strips 1…8192, or a strip width in pixels such as 24px"))) {
            try PresetCatalog(directories: [folders.first, folders.second]).load("broken")
        }
    }

    @Test func anUnknownNameListsEveryAvailableName() throws {
        let folders = try Folders()
        do {
            _ = try PresetCatalog(directories: [folders.first, folders.second]).load("hosue")
            Issue.record("an unknown name loaded")
        } catch {
            let names = Set(Preset.builtIn.map(\.name) + ["house", "broken"]).sorted().joined(separator: ", ")
            #expect(error.message == "unknown preset 'hosue'; available: \(names) (or a path to a .json file)")
        }
    }

    @Test func listingHasOneEntryPerNameAsLookupResolvesIt() throws {
        let folders = try Folders()
        let (entries, problems) = PresetCatalog(directories: [folders.first, folders.second]).all()
        #expect(entries.map(\.preset.name) == Set(Preset.builtIn.map(\.name) + ["house"]).sorted())
        #expect(entries.first { $0.preset.name == "house" }?.path == folders.first + "/house.json")
        #expect(entries.first { $0.preset.name == "spring" }?.preset.summary == "our spring")
        #expect(entries.first { $0.preset.name == "bounce" }?.path == nil)
        #expect(problems.map(\.message) == [folders.second + "/broken.json: slices: 'many' is not valid; expected number of strips 1…8192, or a strip width in pixels such as 24px"])
    }

    @Test func standardOrderIsEnvironmentThenInstalledPresets() {
        let catalog = PresetCatalog.standard(environment: ["SLICEVID_PRESETS": "/team/presets::/home/me/presets"],
                                             executable: "/opt/slicevid/bin/slicevid")
        #expect(catalog.directories == ["/team/presets", "/home/me/presets", "/opt/slicevid/share/slicevid/presets"])
        #expect(PresetCatalog.standard(environment: [:], executable: nil).directories == [])
    }
}
