// The render of one make: stills decoded once (while the encoders open), frames rendered
// concurrently and handed to every output's sink in order, encoders flushed. Each output gets
// frames in its own layout (a pass per layout, `RenderPass`), so adding a poster or a GIF never
// changes a video's bytes. Moving the outputs into place is `MakeJob.run`'s.

import Foundation
import SliceKit
import SliceMedia
import Synchronization

extension MakeJob {
    /// Decodes the stills, renders every frame into `targets`' sinks and flushes them.
    /// - Returns: what the render loop measured.
    /// - Throws: `SlicevidError`: inputs missing or undecodable, an encoder failing, or a signal.
    /// - Parameter decoding: the stills' decode, when it was started already (before the layers
    ///   were drawn); nil to start it here.
    static func render(_ request: MakeRequest, planned: MakePlan, pictures: LayerPictures?, decoding: DecodedStills? = nil,
                       targets: [OutputTarget], cancellation: Cancellation,
                       events: @escaping @Sendable (MakeEvent) -> Void) throws(SlicevidError) -> RenderStats {
        let spec = request.spec
        let sequence = planned.sequence
        let layouts = planned.renderLayouts

        // Every input must exist before anything starts.
        let paths = request.stills.paths
        do {
            for path in paths { try StillDecoder.checkReadable(path: path) }
        } catch {
            throw SlicevidError(error)
        }
        let decoded = decoding ?? decodeStills(request, planned: planned, pictures: pictures, layouts: layouts, cancellation: cancellation)
        let stills = decoded.stills
        if cancellation.isCancelled { throw interrupted(cancellation) }

        // Layers over the frames: prepared once in each of the render's layouts, blended onto
        // each frame they show on.
        let overlays = frameLayers(planned: planned, pictures: pictures, spec: spec, layouts: layouts)
        // Text whose contrast falls short is a refusal (65) where the layout asks for one,
        // before any encoder opens; otherwise a warning, told when the render starts. Measured
        // once every still is decoded, as `--dry-run`, `--check` and `--plan` measure it.
        let contrast = try checkContrast(planned: planned, pictures: pictures, decoded: decoded, overlays: overlays.first ?? [],
                                         layout: layouts[0], spec: spec, threads: request.renderThreads, cancellation: cancellation)
        // A GIF's palette is chosen from every still (in the GIF's layout), so it waits for all
        // of them first; with over layers, it also sees each still with every over layer on it,
        // so a logo's colours are in the palette rather than dithered from the stills' (a fade's
        // blends are not).
        var paletteStills: [PixelLayout: [PlanarImage]] = [:]
        for (place, layout) in layouts.enumerated() where planned.outputs.contains(where: { $0.needsPalette && $0.renderLayout == layout }) {
            var decoded: [PlanarImage] = []
            for still in stills {
                switch still.wait(unless: cancellation, picture: place) {
                case .success(let image): decoded.append(image)
                case .failure(let error):
                    // A stop meanwhile (a signal, a cancelled Task): the stills queued after it
                    // were not decoded.
                    if cancellation.isCancelled { throw interrupted(cancellation) }
                    throw SlicevidError(error)
                }
            }
            if !overlays[place].isEmpty { decoded += decoded.map { covered($0, by: overlays[place]) } }
            paletteStills[layout] = decoded
        }
        // Rendering starts with the first still; the others keep decoding while its hold encodes.
        // Encoders open while it decodes — except a stream's: a header on stdout cannot be taken
        // back if the still turns out to be broken.
        func firstStill() throws(SlicevidError) -> [PlanarImage] {
            switch stills[0].wait(unless: cancellation) {
            case .success(let images): return images
            case .failure(let error):
                if cancellation.isCancelled { throw interrupted(cancellation) }
                throw SlicevidError(error)
            }
        }
        // The bed is decoded, fitted and encoded before any encoder opens: a damaged song is
        // refused with its one error line, and nothing is rendered.
        let announcement = BedAnnouncement(events)
        let audio = try encodeAudio(request, planned: planned, cancellation: cancellation, announcement: announcement)
        if cancellation.isCancelled { throw interrupted(cancellation) }
        let streams = targets.contains(where: \.isStream)
        let early = streams ? try firstStill() : nil
        let sinks = try sinks(for: planned.outputs, targets: targets, stills: paletteStills, background: spec.background,
                              audio: audio, cancellation: cancellation)
        // Each sink goes to the pass of its output's layout; the last frame kept for a batch's
        // report page (one more consumer, never a failing one) to the pass of its own.
        var fed = zip(sinks, planned.outputs).map { (runner: $0, layout: $1.renderLayout) }
        if let lastFrame = request.lastFrame {
            fed.append((SinkRunner(lastFrame.sink(last: SequencePlan(spec: sequence).frameCount - 1), index: sinks.count),
                        planned.lastFrameLayout))
        }
        let images: [PlanarImage]
        if let early { images = early } else { images = try firstStill() }
        let rest = Array(stills.dropFirst())
        let plan = SequencePlan(spec: sequence)
        // Each image's landed focus, once the stills it was decoded as are (the first one is).
        let focuses: @Sendable () -> [Int: Focus] = { decoded.focuses }
        // "Started" is announced once every still decoded, so a bad input still fails with its
        // one error line and nothing before it.
        let outputs = planned.destinations
        let silent = request.audio.file == nil ? [] : planned.silentOutputs
        let loop = RenderLoop(frameCount: plan.frameCount, jobs: request.renderThreads, window: request.window)
        // The pass whose outputs use the most frames goes first and draws every frame; the
        // others draw only the frames their outputs use (a poster's one, a GIF's subsample).
        let runners = layouts.map { layout in fed.filter { $0.layout == layout }.map(\.runner) }
        let lead = RenderPass.lead(runners, frameCount: plan.frameCount)
        // Each pass waits for the stills; the leading one announces the start.
        let renderers = layouts.indices.map { place in
            SequenceRenderer(plan: plan, focuses: focuses, first: images[place], rest: rest, picture: place, overlays: overlays[place],
                             frameRate: spec.frameRate, cancellation: cancellation, onStillsReady: {
                guard place == lead else { return }
                for folder in targets.flatMap(\.createdFolders) { events(.createdFolder(folder)) }
                // The layout's warnings, each once: overlaps, shrunk sizes, then contrast.
                let drawn = planned.layout.map { layout in layout.overlapWarnings + (pictures?.sizeWarnings(layout) ?? []) } ?? []
                for warning in drawn + contrast { events(.warning(warning)) }
                events(.started(frames: plan.frameCount, outputs: outputs))
                if !silent.isEmpty { events(.withoutAudio(outputs: silent)) }
                announcement.started()
            })
        }
        let passes = ([lead] + layouts.indices.filter { $0 != lead }).map { place -> RenderPass in
            let renderer = renderers[place]
            let pool = FramePool(capacity: loop.window, width: spec.width, height: spec.height, layout: layouts[place],
                                 allocation: place == lead ? .upFront : .onDemand)
            return RenderPass(pool: pool, runners: runners[place], frame: { renderer.frame($0, buffer: $1) })
        }
        let renderer = renderers[lead]

        var stats: RenderStats
        do {
            stats = try loop.run(passes: passes, cancellation: cancellation,
                                 progress: { events(.progress(done: $0, total: plan.frameCount)) },
                                 finishing: { events(.finishing) })
        } catch let error as SlicevidError {
            throw error
        } catch is RenderCancelled {
            if cancellation.hasFailed, let failure = renderer.failure { throw SlicevidError(failure) }
            throw interrupted(cancellation)
        } catch {
            throw SlicevidError(.outputFailed, "\(error)")
        }
        // Every sink has taken its packets, so the bed's job is done: this does not wait.
        stats.loudness = audio.values.first?.loudness()?.integrated
        return stats
    }

    /// The layout's over layers prepared for each of `layouts`, in drawing order. A layer that
    /// moves is also kept as its picture, trimmed, to be moved frame by frame (once for every
    /// layout).
    static func frameLayers(planned: MakePlan, pictures: LayerPictures?, spec: TransitionSpec, layouts: [PixelLayout]) -> [[FrameLayer]] {
        // A reveal's schedule learns how many units its text has, so it knows when the last is in.
        let over = zip(pictures?.over ?? [], planned.layout?.schedules ?? []).map { item, schedule in
            let units = item.picture.units
            let counted = schedule.reveals ? schedule.counting(units: units.map { u in
                if case .reveal(let kind, _, _) = schedule.entrance?.effect { return u.units(kind).count }
                return 0
            } ?? 0) : schedule
            return (picture: item.picture, schedule: counted,
                    moving: schedule.moves ? MovingLayer(layer: item.picture.image, x: item.picture.layer.box.x, y: item.picture.layer.box.y,
                                                         frameWidth: spec.width, frameHeight: spec.height, units: units) : nil)
        }
        return layouts.map { layout in
            over.map { item in
                FrameLayer(overlay: FrameOverlay(layer: item.picture.image, x: item.picture.layer.box.x, y: item.picture.layer.box.y,
                                                 frameWidth: spec.width, frameHeight: spec.height, layout: layout),
                           schedule: item.schedule, moving: item.moving, planes: item.moving.flatMap { MovingPlanes($0, layout: layout) })
            }
        }
    }

    /// A copy of `still` with every layer of `overlays` drawn on it whole, whatever its timing.
    static func covered(_ still: PlanarImage, by overlays: [FrameLayer]) -> PlanarImage {
        let copy = PlanarImage(width: still.width, height: still.height, layout: still.layout)
        copy.copy(from: still)
        for layer in overlays { layer.overlay.draw(onto: copy) }
        return copy
    }
}
