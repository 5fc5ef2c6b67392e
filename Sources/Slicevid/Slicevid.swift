// The library other Swift programs build on: slicevid's make, presets, batch, probe and reports,
// with the types they take and return, every one of them re-exported here so `import Slicevid`
// names it. Everything else in the package is `package`: free to change.

@_exported import struct SliceKit.ErrorText
@_exported import struct SliceKit.FrameRate
@_exported import struct SliceKit.KeyWording
@_exported import struct SliceKit.Layout
@_exported import struct SliceKit.LayoutError
@_exported import struct SliceKit.PixelBox
@_exported import enum SliceKit.SafeZone
@_exported import struct SliceKit.Preset
@_exported import struct SliceKit.PresetError
@_exported import struct SliceKit.Setting
@_exported import struct SliceKit.SpecError
@_exported import enum SliceKit.SpecField
@_exported import struct SliceKit.AudioSettings
@_exported import enum SliceKit.Easing
@_exported import struct SliceKit.EasingParseError
@_exported import enum SliceKit.FitMode
@_exported import struct SliceKit.Focus
@_exported import enum SliceKit.MotionKind
@_exported import struct SliceKit.StillMotion
@_exported import struct SliceKit.RGBAColor
@_exported import enum SliceKit.StripDirection
@_exported import enum SliceKit.StripDivision
@_exported import enum SliceKit.AudioOption
@_exported import struct SliceKit.TransitionSpec
@_exported import protocol SliceKit.Wording
@_exported import struct SliceKit.PresetCatalog
@_exported import struct SliceKit.Layout
@_exported import struct SliceKit.LayoutError
@_exported import enum SliceKit.SafeZone
@_exported import struct SliceKit.PixelBox
@_exported import enum SliceKit.Placeholders
@_exported import struct SliceKit.CubicBezier
@_exported import struct SliceKit.PennerCurve
@_exported import struct SliceKit.PhysicalSpring
@_exported import struct SliceKit.AudioValueError
@_exported import enum SliceMedia.AudioCodec
@_exported import struct SliceMedia.AudioStreamFacts
@_exported import struct SliceMedia.MediaFacts
@_exported import struct SliceMedia.ProbeReport
@_exported import struct SliceMedia.CodecChoice
@_exported import struct SliceMedia.EncoderSettings
@_exported import struct SliceMedia.RemoteOptions
@_exported import enum SliceMedia.RemoteKind
@_exported import struct SliceMedia.Sheet
@_exported import struct SliceMedia.OptionValueError
@_exported import enum SliceMedia.OutputOption
@_exported import struct SliceReports.BatchReport
@_exported import struct SliceBatch.BatchRequest
@_exported import enum SliceBatch.BatchEvent
@_exported import class SlicePipeline.Cancellation
@_exported import struct SliceBatch.JobCheck
@_exported import struct SliceBatch.JobPlan
@_exported import struct SliceReports.JobResult
@_exported import enum SliceReports.JobStatus
@_exported import enum SlicePipeline.MakeEvent
@_exported import struct SlicePipeline.LayoutWarning
@_exported import struct SlicePipeline.MakePlan
@_exported import struct SlicePipeline.FramePattern
@_exported import struct SlicePipeline.MakeReport
@_exported import struct SliceCampaign.Manifest
@_exported import struct SlicePipeline.MakeRequest
@_exported import struct SliceReports.Orphan
@_exported import enum SliceReports.PruneLimit
@_exported import struct SliceReports.PruneBrake
@_exported import struct SliceReports.ReportMerge
@_exported import struct SliceReports.ReportPage
@_exported import struct SliceReports.RunNotification
@_exported import struct SlicePipeline.Output
@_exported import struct SliceCampaign.RenderReason
@_exported import struct SliceCampaign.Shard
@_exported import struct SlicePipeline.SlicevidError
@_exported import enum SlicePipeline.Stills
@_exported import struct SlicePipeline.ThreadBudget
@_exported import struct SlicePipeline.WrittenOutput
import Foundation
import SliceBatch
import SliceCampaign
import SliceKit
import SliceMedia
import SlicePipeline
import SliceReports

/// slicevid as a library: what `slicevid make`, `--preset` and `slicevid batch` do, called
/// from Swift. The command line is this library's first client: it renders, locks, reports and
/// hears events through these very calls.
///
/// Each call comes in two shapes: a blocking one that takes a `Cancellation` and an event
/// callback (what the command line uses), and an `async` one that Task cancellation stops and
/// that streams its events as an `AsyncSequence` (`Slicevid+Async.swift`). Calls are
/// thread-safe and may run side by side. The library never changes its host process: it installs
/// no signal handler, never touches standard error's descriptor and never ends the process (the
/// executable's `ProcessHost` does those things for the command line).
public enum Slicevid {
    /// The version outputs and batch records carry.
    public static let version = "0.3.0"

    /// What `request` would write, checked completely without rendering the clip or creating
    /// anything (`slicevid make --dry-run`): its layout's text is set, so a character no font
    /// has or text that does not fit is refused here too, and each still is read as far as its
    /// header, so a missing, unreadable or unrecognised still, or one larger than slicevid
    /// decodes, is refused as the render would refuse it. When the layout has text, the stills
    /// are decoded and a few frames drawn to measure its contrast as the render does
    /// (`MakePlan.warnings`, or the render's refusal); otherwise data damaged past a still's
    /// header is found only by decoding it (the render, `check`).
    /// - Throws: `SlicevidError`; its `category` says who has to act.
    /// Stills and a song given as URLs are fetched into the cache (or revalidated) first, as
    /// the render would.
    public static func plan(_ request: MakeRequest) throws(SlicevidError) -> MakePlan {
        let (local, sources) = request.hasRemoteInputs ? try request.fetchingRemoteInputs(cancellation: Cancellation()) : (request, [])
        do throws(SlicevidError) {
            var plan = try MakeJob.plan(local)
            try MakeJob.checkStillHeaders(local)
            plan.warnings = try MakeJob.layoutWarnings(local, planned: plan)
            return plan
        } catch {
            throw error.naming(sources)
        }
    }

    /// Renders one clip, as `slicevid make` does: the outputs appear under their final names
    /// only when every one of them is complete.
    /// - Parameters:
    ///   - request: the stills (or the demo cards), the transition, the outputs.
    ///   - cancellation: cancel it to stop; the run then throws a `.cancelled` error
    ///     (`.interrupted(signal:)` when it was cancelled with a signal).
    ///   - events: progress, from any thread.
    /// - Throws: `SlicevidError`; its `category` says who has to act.
    public static func make(_ request: MakeRequest, cancellation: Cancellation = Cancellation(),
                            events: @escaping @Sendable (MakeEvent) -> Void = { _ in }) throws(SlicevidError) -> MakeReport {
        try MakeJob.run(request, cancellation: cancellation, events: events)
    }

    /// The preset `value` names, as `--preset` finds it: a file when it contains a slash or
    /// ends in `.json`, otherwise `NAME.json` in a folder of `$SLICEVID_PRESETS`, else a
    /// built-in preset.
    /// - Parameter environment: where `SLICEVID_PRESETS` is read.
    public static func preset(_ value: String,
                              environment: [String: String] = ProcessInfo.processInfo.environment) throws(PresetError) -> Preset {
        try PresetCatalog.standard(environment: environment, executable: nil).load(value)
    }

    /// The preset `value` names in `catalog`, as `--preset` and a manifest's `preset` find it.
    /// - Throws: `SlicevidError` naming the file and field, or listing the names there are;
    ///   sorted as `SlicevidError(_: PresetError)` sorts it, wherever the preset was named.
    public static func preset(_ value: String, in catalog: PresetCatalog) throws(SlicevidError) -> Preset {
        do throws(PresetError) { return try catalog.load(value) } catch { throw SlicevidError(error) }
    }

    /// The presets the running program can name, looked up as the `slicevid` executable looks
    /// them up: each folder of `$SLICEVID_PRESETS` (the process's own environment, each folder's
    /// name byte for byte), then the presets installed beside the running executable
    /// (`BIN/../share/slicevid/presets`, where `make install` puts them; the executable found
    /// through /proc/self/exe, so a symlink to it does not count), then the built-in presets.
    public static func presetCatalog() -> PresetCatalog {
        // /proc/self/exe is the real binary even when run through a symlink (/usr/local/bin).
        let executable = FileSystem.realpath("/proc/self/exe")
            ?? CommandLine.arguments.first.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
        // Folders' names byte for byte (`PathBytes`), as the command line's are.
        var environment = ProcessInfo.processInfo.environment
        if let folders = getenv("SLICEVID_PRESETS") {
            environment["SLICEVID_PRESETS"] = PathBytes.text(UnsafeRawBufferPointer(start: folders, count: strlen(folders)))
        }
        return PresetCatalog.standard(environment: environment, executable: executable)
    }

    /// The program that decodes SVG, HEIC, AVIF and JPEG XL stills, whose decoders can abort
    /// the process they run in: a slicevid executable, started as a helper process for each
    /// such still (docs/decoding-isolation.md). nil, the default, refuses those stills with an
    /// `.unavailable` error; they are never decoded in the calling program's own process.
    public static var decodeHelper: String? {
        get { DecodeHelper.executable }
        set { DecodeHelper.executable = newValue }
    }

    /// The built-in presets, in the order `slicevid presets` lists them.
    public static var builtInPresets: [Preset] { Preset.builtIn }
}
