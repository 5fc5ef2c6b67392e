// The Swift that README.md and docs/*.md show, compiled with the tests: each block there
// is the body of one function here, character for character (DocsTests.swiftSnippetsCompile
// compares them), so an API change that breaks an example breaks the build. Never called: the
// examples name stills and manifests that are not here.

import Foundation
import Slicevid

/// README.md, "As a library".
private func readmeExample() async throws {
    var spec = try Slicevid.preset("spring").spec
    try spec.set(.size, to: "1080x1920")                 // as --size 1080x1920
    let request = try MakeRequest(stills: .pair(from: "a.jpg", to: "b.png"), outputs: [.file("story.mp4")], spec: spec)
    let report = try await Slicevid.make(request)        // cancelling the Task stops it
    print(report.written.map(\.path))
}

/// docs/library.md, "A clip".
private func libraryClip() async throws {
    // Package.swift: .package(path: "../slicevid"), then .product(name: "Slicevid", package: "slicevid")
    var spec = try Slicevid.preset("spring").spec
    try spec.set(.size, to: "1080x1920")                 // as --size 1080x1920
    var webm = EncoderSettings()
    try webm.set(.crf, to: "32")                         // as -o story.webm:crf=32
    let request = try MakeRequest(stills: .pair(from: "a.jpg", to: "b.png"),
                                  outputs: [.file("story.mp4"), .file("story.webm", settings: webm)],
                                  spec: spec)
    let run = Slicevid.start(request)
    for await event in run {
        if case .progress(let done, let total) = event { print("\(done)/\(total)") }
    }
    let report = try await run.report
    print(report.written.map { "\($0.path): \($0.frames) frames, \($0.bytes) bytes" })
}

/// docs/library.md, "A campaign".
private func libraryCampaign() async throws {
    let manifest = try Slicevid.manifest(at: "campaign.json")
    let shard = try Shard(parsing: "auto", environment: ProcessInfo.processInfo.environment)
    let request = try BatchRequest(manifest: manifest, shard: shard, reportFile: "report.json")
    let report = try await Slicevid.batch(request)
    for job in report.jobs where job.status == .failed {
        print("\(job.id): \(job.error ?? "")")
    }
}

/// docs/library.md, "Reports and media read back".
private func libraryReports() throws {
    let merge = try Slicevid.mergeReports(["shard-0.json", "shard-1.json"], writingTo: "campaign.json")
    if !merge.isComplete { merge.problems.forEach { print($0) } }
    _ = try Slicevid.reportPage(of: "campaign.json", writingTo: "index.html")
    let clip = try Slicevid.probe("out/promo.mp4")
    print(clip.facts.codec, clip.facts.width, clip.facts.height, clip.facts.frames, clip.tag ?? "no tag")
}

/// docs/library.md, "Several renders at once".
private func librarySeveralRenders() async throws {
    let machine = ThreadBudget.machine                   // or ThreadBudget(cores: 8): a container's share
    let clips = ["a", "b", "c", "d"]
    try await withThrowingTaskGroup(of: MakeReport.self) { group in
        for name in clips {
            var request = try MakeRequest(stills: .pair(from: "\(name).jpg", to: "end.png"), outputs: [.file("\(name).mp4")],
                                          renderThreads: machine.renderThreads(sharedBy: clips.count))
            request.threads = machine                    // each encoder's threads: from the cores and its frame
            group.addTask { try await Slicevid.make(request) }
        }
        for try await report in group { print(report.written.map(\.path)) }
    }
}

/// docs/library.md, "Errors".
private func libraryErrors() async throws {
    struct FormWording: Wording {
        func name(_ setting: Setting) -> String { "the \(setting.key) field" }
        func output(_ path: String) -> String { "the file \(path)" }
    }

    do {
        _ = try await Slicevid.make(MakeRequest(outputs: [.file("clip.mp4"), .file("clip.mp4")]))
    } catch {
        print(error.message)                    // output clip.mp4: given twice
        print(error.message(FormWording()))     // the file clip.mp4: given twice
    }
}

/// docs/library.md, "The process it runs in".
private func libraryDecodeHelper() {
    Slicevid.decodeHelper = "/usr/local/bin/slicevid"   // decodes SVG, HEIC, AVIF and JPEG XL stills
}
