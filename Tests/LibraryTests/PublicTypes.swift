// Every public type of the library, named with `import Slicevid` alone: this file compiles only
// while Sources/Slicevid re-exports each one from the module it lives in (SliceKit, SliceMedia,
// SlicePipeline, SliceCampaign, SliceReports, SliceBatch), so a type a call takes or returns can
// always be named by the program calling it. The test below keeps the list complete: a public
// type added anywhere under Sources must be added here, and so re-exported.

import Foundation
import Slicevid
import Testing

/// The library's public types, top-level ones; nested ones are named through these.
let publicTypes: [Any.Type] = [
    // The calls, their runs and cancellation.
    Slicevid.self, SlicevidRun<MakeEvent, MakeReport>.self, Cancellation.self,
    // make: the request and what it says back.
    MakeRequest.self, Stills.self, Output.self, FramePattern.self, MakePlan.self, MakeReport.self, MakeEvent.self, LayoutWarning.self, WrittenOutput.self,
    // The effect and its settings.
    TransitionSpec.self, SpecField.self, SpecError.self, Easing.self, EasingParseError.self, CubicBezier.self, PennerCurve.self,
    PhysicalSpring.self, FitMode.self, Focus.self, MotionKind.self, StillMotion.self, RGBAColor.self, StripDirection.self, StripDivision.self, FrameRate.self,
    // Layouts: text and logos on the cards and over the frames.
    Layout.self, LayoutError.self, SafeZone.self, PixelBox.self, Placeholders.self, ThreadBudget.self,
    // Encoding and the music bed.
    EncoderSettings.self, CodecChoice.self, OutputOption.self, OptionValueError.self, Sheet.self, AudioSettings.self,
    AudioOption.self, AudioCodec.self, AudioValueError.self,
    // Stills and songs given as URLs: the cache and the bounds of fetching.
    RemoteOptions.self, RemoteKind.self,
    // Presets.
    Preset.self, PresetError.self, PresetCatalog.self,
    // Campaigns: the manifest, a run, its report and page.
    Manifest.self, Shard.self, BatchRequest.self, BatchEvent.self, BatchReport.self, JobResult.self, JobStatus.self,
    JobCheck.self, JobPlan.self, RenderReason.self, Orphan.self, PruneLimit.self, PruneBrake.self, ReportMerge.self, ReportPage.self, RunNotification.self,
    // Media read back.
    ProbeReport.self, MediaFacts.self, AudioStreamFacts.self,
    // Errors and how a front end words them.
    SlicevidError.self, ErrorText.self, Setting.self, (any Wording).self, KeyWording.self,
]

@Suite("the library's public types")
struct PublicTypesTests {
    @Test("every public type declared under Sources is named above with import Slicevid alone")
    func everyPublicTypeIsReexported() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources").standardizedFileURL
        let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)).compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" }
        // Top-level declarations only (no indentation), SPI ones aside.
        let declaration = try Regex(#"^(?:@\w+(?:\([^)]*\))? )*public (?:final )?(?:struct|enum|class|protocol|actor|typealias) (\w+)"#)
        var declared: Set<String> = []
        for file in files {
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") where !line.contains("@_spi") {
                if let match = try declaration.wholeMatch(in: line.prefix { $0 != "{" && $0 != ":" && $0 != "<" && $0 != "=" }
                                                          .replacing(/\s+$/, with: "")),
                   let name = match.output[1].substring {
                    declared.insert(String(name))
                }
            }
        }
        let named = Set(publicTypes.map { String(describing: $0).prefix { $0 != "<" }.replacingOccurrences(of: "any ", with: "") })
        #expect(declared.count > 50, "\(declared)")
        #expect(declared.subtracting(named).isEmpty, "public types not re-exported by Slicevid and named in PublicTypes.swift: \(declared.subtracting(named).sorted())")
    }
}
