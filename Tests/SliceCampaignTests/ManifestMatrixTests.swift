// Matrix jobs: one job per combination, placeholders filled in every string, the expansion
// order, and the one line each mistake gets (a repeated id, an unknown placeholder, a bad value).

import Foundation
import ScratchFixtures
import SliceKit
import Testing
@testable import SliceCampaign
@testable import SlicePipeline

@Suite struct ManifestMatrixTests {
    private func load(_ scratch: Scratch, jobs: [Any], defaults: [String: Any] = [:]) throws -> Manifest {
        try Manifest.load(path: scratch.json("campaign.json", ["defaults": defaults, "jobs": jobs]), presets: testPresets)
    }

    /// The message a manifest with `jobs` is refused with (all refusals are usage errors).
    private func refusal(_ scratch: Scratch, jobs: [Any]) throws -> String? {
        let path = try scratch.json("campaign.json", ["jobs": jobs])
        do throws(SlicevidError) {
            _ = try Manifest.load(path: path, presets: testPresets)
            return nil
        } catch {
            #expect(error.category == .usage)
            return error.message
        }
    }

    /// docs/batch.md's matrix campaign (examples/matrix.json): 3 aspect ratios × 2 products, mp4 + webm + poster each.
    static var campaign: [String: Any] { [
        "id": "{product}-{size}",
        "matrix": ["size": ["320x180", "180x320", "240x240"], "product": ["coffee", "astro"]],
        "images": ["stills/{product}-before.png", ["path": "stills/{product}-after.png", "hold": 0.5]],
        "size": "{size}",
        "transitions": [["easing": "ease-{ease}"]],
        "outputs": ["out/{product}/{id}.mp4", "out/{product}/{id}.webm", "out/{product}/{id}-poster.png"],
    ] }

    @Test func aThreeByTwoMatrixMakesSixJobsWithEveryStringFilled() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        var template = Self.campaign
        template["matrix"] = ["size": ["320x180", "180x320", "240x240"], "product": ["coffee", "astro"], "ease": ["in-out"]]
        template["id"] = "{product}-{size}-{ease}"
        let manifest = try load(scratch, jobs: [template])
        let folder = manifest.folder
        // The name that comes first in the id varies slowest; values keep their order.
        #expect(manifest.jobs.map(\.id) == ["coffee-320x180-in-out", "coffee-180x320-in-out", "coffee-240x240-in-out",
                                            "astro-320x180-in-out", "astro-180x320-in-out", "astro-240x240-in-out"])
        let astro = manifest.jobs[4]
        #expect(astro.spec.width == 180 && astro.spec.height == 320)
        #expect(astro.images == [folder + "/stills/astro-before.png", folder + "/stills/astro-after.png"])
        #expect(astro.sequence.hold(ofImage: 1) == 0.5)
        #expect(astro.sequence.segments[0].text(of: .easing) == "ease-in-out")
        #expect(astro.outputPaths == ["mp4", "webm"].map { folder + "/out/astro/astro-180x320-in-out.\($0)" }
                + [folder + "/out/astro/astro-180x320-in-out-poster.png"])
    }

    @Test func aWholeStringPlaceholderKeepsANumberANumber() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let manifest = try load(scratch, jobs: [[
            "id": "clip-{crf}-{fps}", "matrix": ["crf": [20, 30], "fps": [24, 29.97]],
            "images": ["a.png", "b.png"], "crf": "{crf}", "fps": "{fps}", "hold": "{fps}", "outputs": "out/{id}-{crf}.mp4",
        ]])
        #expect(manifest.jobs.map(\.id) == ["clip-20-24", "clip-20-29.97", "clip-30-24", "clip-30-29.97"])
        #expect(manifest.jobs.map(\.encoder.crf) == [20, 20, 30, 30])
        #expect(manifest.jobs[1].spec.frameRate == FrameRate(30000, 1001))
        #expect(manifest.jobs[1].spec.hold == 29.97, "a number field given a number through its placeholder")
        #expect(manifest.jobs[3].outputPaths == [manifest.folder + "/out/clip-30-29.97-30.mp4"])
    }

    @Test func idWorksWithoutAMatrixAndBracesCanBeWrittenLiterally() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let manifest = try load(scratch, jobs: [
            ["id": "teaser", "images": ["a.png", "b.png"], "description": "{{not a placeholder}}", "outputs": ["out/{id}.mp4", "out/{{id}}.webm"]],
            ["id": "{{odd", "images": ["a.png", "b.png"], "outputs": "out/{id}-x.gif"],
        ])
        #expect(manifest.jobs[0].outputPaths == [manifest.folder + "/out/teaser.mp4", manifest.folder + "/out/{id}.webm"])
        #expect(manifest.jobs[1].id == "{odd" && manifest.jobs[1].outputPaths == [manifest.folder + "/out/{odd-x.gif"])
        // A brace that opens no placeholder is an error, in the id as in any field: a typo
        // (`{sku` for `{sku}`) never becomes part of a file name.
        for (field, value) in [("id", "{odd"), ("outputs", "out/{id.mp4"), ("outputs", "out/{ a }.mp4"), ("images", "a}.png")] {
            var job: [String: Any] = ["id": "x", "images": ["a.png", "b.png"], "outputs": "out/x.mp4"]
            job[field] = field == "images" ? [value, "b.png"] : value
            let message = try refusal(scratch, jobs: [job])
            #expect(message?.contains("is not a placeholder; write {name}") == true && message?.contains("{{ or }} for a literal brace") == true,
                    "\(value): \(message ?? "accepted")")
        }
    }

    @Test func repeatedIdsAreRefusedNamingTheJob() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let base: [String: Any] = ["images": ["a.png", "b.png"], "outputs": "out/{id}.mp4"]
        // A name missing from the id would repeat it.
        let missing = try refusal(scratch, jobs: [base.merging(["id": "promo-{size}", "matrix": ["size": ["1x1", "2x2"], "product": ["a", "b"]]]) { $1 }])
        #expect(missing == "\(scratch.path)/campaign.json: jobs[0]: id: 'promo-{size}' does not use {product}; every matrix name must be in the id, so each combination has its own")
        // Every name is there, yet two combinations read alike.
        let alike = try refusal(scratch, jobs: [base.merging(["id": "p{a}{b}", "matrix": ["a": ["1", "11"], "b": ["11", "1"]]]) { $1 }])
        #expect(alike?.contains("jobs[0]: matrix: the id 'p{a}{b}' gives 'p111' for both a=1, b=11 and a=11, b=1") == true, "\(alike ?? "")")
        // An expanded id that another job uses.
        let clash = try refusal(scratch, jobs: [base.merging(["id": "promo-{n}", "matrix": ["n": [1, 2]]]) { $1 },
                                                base.merging(["id": "promo-2"]) { $1 }])
        #expect(clash?.hasSuffix("job 'promo-2': id: used by jobs[0] (n=2) and jobs[1]; ids must be unique") == true, "\(clash ?? "")")
    }

    @Test func unknownPlaceholdersAndBadMatricesAreRefusedWithTheField() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let base: [String: Any] = ["id": "p-{n}", "matrix": ["n": [1, 2]], "images": ["a.png", "b.png"], "outputs": "out/{id}.mp4"]
        let cases: [([String: Any], String)] = [
            (["outputs": ["out/{id}.mp4", "out/{sise}.webm"]], "jobs[0]: outputs[1]: {sise} is not a placeholder of this job (it has {n}, {id}); write {{ and }} for literal braces"),
            (["images": ["a.png", ["path": "{N}.png"]]], "jobs[0]: images[1].path: {N} is not a placeholder"),
            (["matrix": ["n": []]], "jobs[0]: matrix.n: expected an array of 1…1000 strings or numbers"),
            (["matrix": ["n": [1, true]]], "jobs[0]: matrix.n[1]: expected a string or a number"),
            (["matrix": ["n": [["x": 1]]]], "jobs[0]: matrix.n[0]: expected a string or a number"),
            (["matrix": ["n x": [1]]], "jobs[0]: matrix.n x: is not a matrix name"),
            (["matrix": ["id": [1]], "id": "p-{id}"], "jobs[0]: matrix.id: {id} is the job's own id"),
            (["matrix": [String: Any]()], "jobs[0]: matrix: expected an object of names and value arrays"),
            (["matrix": ["a": Array(0..<200), "b": Array(0..<200)], "id": "{a}-{b}"], "jobs[0]: matrix: makes more than 10000 jobs"),
            (["id": 7], "jobs[0]: id: a job with a matrix needs an \"id\" string"),
        ]
        for (change, expected) in cases {
            let message = try refusal(scratch, jobs: [base.merging(change) { $1 }])
            #expect(message?.hasPrefix("\(scratch.path)/campaign.json: " + expected) == true, "\(message ?? "accepted")")
        }
        // Outside a matrix, only {id} exists.
        let plain = try refusal(scratch, jobs: [["id": "x", "images": ["{n}.png", "b.png"], "outputs": "out/x.mp4"]])
        #expect(plain?.hasSuffix("jobs[0]: images[0]: {n} is not a placeholder of this job (it has {id}); write {{ and }} for literal braces") == true, "\(plain ?? "")")
    }

    @Test func expandedOutputsMustStillBeDistinct() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let message = try refusal(scratch, jobs: [["id": "p-{n}", "matrix": ["n": [1, 2]], "images": ["a.png", "b.png"], "outputs": "out/same.mp4"]])
        #expect(message?.contains("job 'p-2': outputs: ") == true && message?.contains("is also written by job 'p-1'") == true, "\(message ?? "")")
    }
}
