// The contrast check of one make, the same for the render, `--dry-run`, `--check` and `--plan`:
// a card's text is measured on its fitted still with the card's earlier layers printed (by the
// decode, `ContrastProbe`: the words fly and move with that still, so it is what they are read
// against); an `over` text layer on frames drawn as the render draws them (strips, moving
// stills, card layers, the over layers under it), at a sample of the frames where it shows at
// rest. Below the layout's minimum a layer is a refusal (65) when the layout asks for one,
// otherwise a warning, one per layer: its worst frame.

import Dispatch
import SliceKit
import SliceMedia
import Synchronization

extension LayerPictures {
    /// The contrast targets of the card text printed on the still at `index`, in drawing order,
    /// each with the number of that card's layers printed before it.
    /// - Parameters:
    ///   - plan: the clip's timeline (which frames show the still at rest).
    ///   - frameRate: frames per second.
    ///   - readability: the layout's rules (the minimum by size).
    ///   - scale: the frame's pixels per pixel at 1080p.
    package func contrastTargets(still index: Int, plan: SequencePlan, frameRate: Double, readability: Layout.Readability,
                                 scale: Double) -> [Contrast.Target] {
        guard let firstResting = Self.restingFrames(of: index, plan: plan).first else { return [] }
        var targets: [Contrast.Target] = []
        for (below, picture) in card(index, of: plan.segments.count + 1).enumerated() {
            guard case .text(let text) = picture.layer.content else { continue }
            targets.append(target(picture, text: text, readability: readability, scale: scale, frame: firstResting, below: below))
        }
        return targets
    }

    /// What `picture` (a text layer) must keep, read at `frame`.
    func target(_ picture: Picture, text: Layout.Text, readability: Layout.Readability, scale: Double, frame: Int, below: Int = 0) -> Contrast.Target {
        Contrast.Target(layer: picture.layer.name, box: picture.layer.box, text: text.color, scrim: text.scrim, plate: text.plate?.color,
                        minimum: readability.minimum(size: (picture.size ?? 0) / scale, weight: text.weight), frame: frame, below: below)
    }

    /// Whether some layer is text, so there is contrast to measure.
    var hasText: Bool {
        pictures.contains { if case .text = $0.layer.content { true } else { false } }
    }

    /// The frames of the clip that show the still at `index` alone: its hold, and for a later
    /// still the frames after its strips settled.
    static func restingFrames(of index: Int, plan: SequencePlan) -> [Int] {
        (0..<plan.frameCount).filter { frame in
            let location = plan.locate(frame: frame)
            let segment = plan.segments[location.segment]
            if location.segment == index, segment.showsSourceOnly(frame: location.frame) { return true }
            return location.segment == index - 1 && segment.showsDestinationOnly(frame: location.frame)
        }
    }
}

extension SequencePlan {
    /// The stretch of the clip frame `index` is in, numbered in order: still k at rest is 2k,
    /// the strips from still k to k + 1 are 2k + 1.
    func stretch(ofFrame index: Int) -> Int {
        let location = locate(frame: index)
        let segment = segments[location.segment]
        if segment.showsSourceOnly(frame: location.frame) { return 2 * location.segment }
        if segment.showsDestinationOnly(frame: location.frame) { return 2 * location.segment + 2 }
        return 2 * location.segment + 1
    }

    /// The frames an over layer is measured on, of the frames `shown` (ascending) where it shows
    /// at rest: in each stretch of the clip (a still at rest, one transition's strips) its first,
    /// middle and last frame, and every frame of `kept` it shows on (a poster's, a storyboard's).
    package func contrastSample(_ shown: [Int], kept: Set<Int> = []) -> [Int] {
        var sample = Set(shown.filter(kept.contains))
        var run: [Int] = []
        func close() {
            guard !run.isEmpty else { return }
            sample.formUnion([run[0], run[run.count / 2], run[run.count - 1]])
            run = []
        }
        for frame in shown {
            if let last = run.last, last + 1 != frame || stretch(ofFrame: last) != stretch(ofFrame: frame) { close() }
            run.append(frame)
        }
        close()
        return sample.sorted()
    }
}

extension MakeJob {
    /// Measures the contrast of every text layer of the layout, once `decoded`'s stills are
    /// decoded (it waits for them when there is text to measure).
    /// - Parameters:
    ///   - overlays: the over layers prepared in `layout`, the layout the stills' first picture is in.
    ///   - threads: how many frames may be drawn at once (the render's threads).
    /// - Returns: the warnings of the layers below their minimum, each layer once (its worst).
    /// - Throws: `SlicevidError`: a still that could not be decoded, a stop, or (where the
    ///   layout refuses) the first layer below its minimum (65, naming the layer, ratio and frame).
    static func checkContrast(planned: MakePlan, pictures: LayerPictures?, decoded: DecodedStills, overlays: [FrameLayer],
                              layout: PixelLayout, spec: TransitionSpec, threads: Int,
                              cancellation: Cancellation) throws(SlicevidError) -> [LayoutWarning] {
        guard let plan = planned.layout, let pictures, pictures.hasText else { return [] }
        var images: [PlanarImage] = []
        for still in decoded.stills {
            switch still.wait(unless: cancellation, picture: 0) {
            case .success(let image): images.append(image)
            case .failure(let error):
                if cancellation.isCancelled { throw interrupted(cancellation) }
                throw SlicevidError(error)
            }
        }
        var measures = decoded.probes.flatMap { $0.measures ?? [] }
        let timeline = SequencePlan(spec: planned.sequence)
        let rate = spec.frameRate
        let scale = Double(min(spec.width, spec.height)) / 1080
        let kept = Set(planned.outputs.flatMap(\.pictureFrames))
        let rest = decoded.stills.dropFirst().map { $0 }
        // Each text layer's frames to measure, drawn as the render draws them with only the over
        // layers under it: spread over the render's threads (they come before any encoder opens),
        // each result kept in its place so the worst frame is the same with any number.
        var jobs: [(layer: Int, target: Contrast.Target)] = []
        var renderers: [SequenceRenderer] = []
        for (place, item) in pictures.over.enumerated() {
            guard case .text(let text) = item.picture.layer.content, place < overlays.count else { continue }
            let schedule = overlays[place].schedule
            // The frames where it shows whole and at rest: entrances and exits are on their way.
            let states = (0..<timeline.frameCount).map { (frame: $0, state: schedule.state(at: Double($0) / rate.value)) }
            var shown = states.filter { $0.state.map { $0.isStill && $0.opacity >= 1 } ?? false }.map(\.frame)
            if shown.isEmpty { shown = states.filter { $0.state != nil }.map(\.frame) }
            for frame in timeline.contrastSample(shown, kept: kept) {
                jobs.append((renderers.count, pictures.target(item.picture, text: text, readability: plan.readability, scale: scale, frame: frame)))
            }
            renderers.append(SequenceRenderer(plan: timeline, focuses: { decoded.focuses }, first: images[0], rest: rest,
                                              overlays: Array(overlays[..<place]), frameRate: rate, cancellation: cancellation, onStillsReady: {}))
        }
        let workers = min(max(1, threads), jobs.count)
        let (sampled, drawers) = (jobs, renderers)
        let results = Mutex([Contrast.Measure?](repeating: nil, count: jobs.count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let buffer = PlanarImage(width: spec.width, height: spec.height, layout: layout)
            for k in Swift.stride(from: worker, to: sampled.count, by: workers) where !cancellation.isCancelled {
                let (layer, target) = sampled[k]
                let measure = Contrast.Measure(target: target, on: drawers[layer].frame(target.frame, buffer: buffer))
                results.withLock { $0[k] = measure }
            }
        }
        if cancellation.isCancelled { throw interrupted(cancellation) }
        // Each layer's worst frame: the first of its lowest, in frame order.
        var worst = [Contrast.Measure?](repeating: nil, count: renderers.count)
        for (measure, job) in zip(results.withLock { $0 }, jobs) {
            guard let measure else { continue }
            if worst[job.layer].map({ measure.ratio < $0.ratio }) ?? true { worst[job.layer] = measure }
        }
        measures += worst.compactMap { $0 }
        let lowest = lowestMeasures(measures)
        if plan.readability.refuse, let first = lowest.first { throw SlicevidError(first.refusal(layout: plan.file)) }
        return lowest.map { measure in
            LayoutWarning(plan.warningPrefix + measure.summary, topic: plan.warningTopic + " \(measure.target.layer) contrast")
        }
    }

    /// The layers below their minimum, each once (its lowest measure, the first of equals), in
    /// the order first met.
    static func lowestMeasures(_ measures: [Contrast.Measure]) -> [Contrast.Measure] {
        var lowest: [String: Contrast.Measure] = [:]
        var order: [String] = []
        for measure in measures where measure.isBelowMinimum {
            let name = measure.target.layer
            if lowest[name] == nil { order.append(name) }
            if lowest[name].map({ measure.ratio < $0.ratio }) ?? true { lowest[name] = measure }
        }
        return order.map { lowest[$0]! }
    }

    /// The layout's warnings for `request` as its render tells them: overlapping layers, a
    /// shrunk size, and the contrast of its text, measured on its stills decoded as the render
    /// decodes them (in its first layout only) and on the frames it would draw.
    /// - Throws: `SlicevidError`: what drawing the layers refuses, a still that cannot be
    ///   decoded, or the contrast refusal the render would make.
    package static func layoutWarnings(_ request: MakeRequest, planned: MakePlan) throws(SlicevidError) -> [LayoutWarning] {
        guard let layout = planned.layout else { return [] }
        let pictures = try layout.draw()
        let drawn = layout.overlapWarnings + pictures.sizeWarnings(layout)
        guard pictures.hasText else { return drawn }
        let first = planned.renderLayouts[0]
        let cancellation = Cancellation()
        let decoded = decodeStills(request, planned: planned, pictures: pictures, layouts: [first], cancellation: cancellation)
        let overlays = frameLayers(planned: planned, pictures: pictures, spec: request.spec, layouts: [first])[0]
        return try drawn + checkContrast(planned: planned, pictures: pictures, decoded: decoded, overlays: overlays, layout: first,
                                         spec: request.spec, threads: request.renderThreads, cancellation: cancellation)
    }
}

extension Contrast.Measure {
    /// `target` measured on `frame` (a frame of the render, in any layout) under its box.
    init(target: Contrast.Target, on frame: PlanarImage) {
        // A 16-bit frame is read as its 8-bit twin, as a poster is written from it.
        let picture = frame.layout.isDeep ? frame.reducedToEightBit() : frame
        let ratio = Contrast.measure(target, width: picture.width, height: picture.height) { y, x0, row in
            picture.readRGB(y: y, from: x0, into: &row)
        }
        self.init(target: target, ratio: ratio)
    }

    /// The refusal of a layer below its minimum: 65, naming the layout, the layer, the ratio
    /// and the frame.
    func refusal(layout: String) -> MediaError {
        MediaError(.inputInvalid, subject: "layout \(InputText.quoted(layout))", message: summary)
    }
}

extension EncodingPlan {
    /// The frames a poster or a storyboard is made from (none for a video or a GIF).
    var pictureFrames: [Int] {
        if let sheet { return sheet.frames(of: selection.renderFrames) }
        if case .single(let frame) = selection.rule { return [frame] }
        return []
    }
}
