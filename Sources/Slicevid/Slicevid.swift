// The library other Swift programs build on: slicevid's make, presets and batch, with the
// types they take and return. Everything else in the package is `package`: free to change.

@_exported import struct SliceKit.ErrorText
@_exported import struct SliceKit.FrameRate
@_exported import struct SliceKit.KeyWording
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
@_exported import struct SliceKit.RGBAColor
@_exported import enum SliceKit.StripDirection
@_exported import enum SliceKit.StripDivision
@_exported import enum SliceKit.AudioOption
@_exported import struct SliceKit.TransitionSpec
@_exported import protocol SliceKit.Wording
@_exported import enum SliceMedia.AudioCodec
@_exported import struct SliceMedia.CodecChoice
@_exported import struct SliceMedia.EncoderSettings
@_exported import struct SliceMedia.Sheet
@_exported import struct SliceMedia.OptionValueError
@_exported import enum SliceMedia.OutputOption
@_exported import struct SlicePipeline.BatchReport
@_exported import struct SlicePipeline.BatchRequest
@_exported import enum SlicePipeline.BatchEvent
@_exported import class SlicePipeline.Cancellation
@_exported import struct SlicePipeline.JobCheck
@_exported import struct SlicePipeline.JobPlan
@_exported import struct SlicePipeline.JobResult
@_exported import enum SlicePipeline.JobStatus
@_exported import enum SlicePipeline.MakeEvent
@_exported import struct SlicePipeline.MakePlan
@_exported import struct SlicePipeline.MakeReport
@_exported import struct SlicePipeline.Manifest
@_exported import struct SlicePipeline.MakeRequest
@_exported import struct SlicePipeline.Orphan
@_exported import struct SlicePipeline.Output
@_exported import struct SlicePipeline.RenderReason
@_exported import struct SlicePipeline.Shard
@_exported import struct SlicePipeline.SlicevidError
@_exported import enum SlicePipeline.Stills
@_exported import struct SlicePipeline.ThreadBudget
@_exported import struct SlicePipeline.WrittenOutput
import Foundation
import SliceKit
import SliceMedia
import SlicePipeline

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

    /// What `request` would write, checked completely without decoding a still, rendering a
    /// frame or creating anything (`slicevid make --dry-run`): its layout's text is set, so a
    /// character no font has or text that does not fit is refused here too, and each still is
    /// read as far as its header, so a missing, unreadable or unrecognised still, or one larger
    /// than slicevid decodes, is refused as the render would refuse it. Data damaged past a
    /// still's header is found only by decoding it (the render, `check`).
    /// - Throws: `SlicevidError`; its `category` says who has to act.
    public static func plan(_ request: MakeRequest) throws(SlicevidError) -> MakePlan {
        let plan = try MakeJob.plan(request)
        try MakeJob.checkStillHeaders(request)
        _ = try plan.layout?.draw()
        return plan
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
