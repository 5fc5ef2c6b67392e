// The library other Swift programs build on: slicevid's make, presets and batch, with the
// types they take and return. Everything else in the package is `package`: free to change.

@_exported import struct SliceKit.FrameRate
@_exported import struct SliceKit.Preset
@_exported import struct SliceKit.PresetError
@_exported import struct SliceKit.SpecError
@_exported import enum SliceKit.SpecField
@_exported import struct SliceKit.TransitionSpec
@_exported import struct SliceMedia.EncoderSettings
@_exported import struct SliceMedia.OptionValueError
@_exported import enum SliceMedia.OutputOption
@_exported import struct SlicePipeline.BatchReport
@_exported import class SlicePipeline.Cancellation
@_exported import struct SlicePipeline.JobResult
@_exported import enum SlicePipeline.JobStatus
@_exported import enum SlicePipeline.MakeEvent
@_exported import struct SlicePipeline.MakeReport
@_exported import struct SlicePipeline.MakeRequest
@_exported import struct SlicePipeline.SlicevidError
@_exported import struct SlicePipeline.WrittenOutput
import Foundation
import SliceKit
import SliceMedia
import SlicePipeline

/// slicevid as a library: what `slicevid make`, `--preset` and `slicevid batch` do, called
/// from Swift. Every call is synchronous and thread-safe; cancel a run from another thread
/// with the `Cancellation` you pass in.
public enum Slicevid {
    /// The version outputs and batch records carry.
    public static let version = "0.3.0"

    /// Renders one clip, as `slicevid make` does: the outputs appear under their final names
    /// only when every one of them is complete.
    /// - Parameters:
    ///   - request: the stills (or none, for the demo cards), the transition, the outputs.
    ///   - cancellation: cancel it to stop; the run then throws an `.interrupted` error.
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

    /// Runs every job of the manifest at `path` (or those of `shard`, written `K/N`), as
    /// `slicevid batch` does: up-to-date jobs are skipped, a job's failure is its own result.
    /// - Parameters:
    ///   - parallel: jobs at once; by default from the cores and the frame sizes.
    ///   - force: replace outputs slicevid's records do not vouch for.
    /// - Throws: `SlicevidError` for a manifest that cannot be read or is invalid (nothing ran).
    public static func batch(manifest path: String, shard: String? = nil, force: Bool = false, parallel: Int? = nil,
                             cancellation: Cancellation = Cancellation()) throws(SlicevidError) -> BatchReport {
        let catalog = PresetCatalog.standard(environment: ProcessInfo.processInfo.environment, executable: nil)
        let manifest = try Manifest.load(path: path) { value throws(SlicevidError) in
            do throws(PresetError) { return try catalog.load(value) } catch { throw SlicevidError(.usage, error.message) }
        }
        let selection = try shard.map { text throws(SlicevidError) in try Shard(parsing: text, environment: [:]) } ?? .all
        let selected = manifest.jobs.filter { selection.contains($0.id) }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let parallel = parallel ?? BatchRequest.defaultParallel(for: selected, cores: cores)
        guard BatchRequest.parallelRange.contains(parallel) else {
            throw SlicevidError(.usage, "parallel: \(parallel) is not within \(BatchRequest.parallelRange)")
        }
        let request = BatchRequest(manifest: manifest, shard: selection, force: force, jobs: max(1, cores / parallel),
                                   parallel: parallel, version: version)
        return BatchRun.run(request, cancellation: cancellation)
    }
}
