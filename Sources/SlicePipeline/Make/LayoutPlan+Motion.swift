// The over layers' timelines, resolved when the clip is planned: each anchor against this
// clip's frames (its holds, durations and steps), so `--dry-run` and `--plan` can print the
// times and the render only asks each layer's state at a frame's time.

import SliceKit

extension LayoutPlan {
    /// This plan with a schedule for each over layer, in drawing order, timed on `sequence`.
    /// - Throws: `SlicevidError(.usage)` naming the layout, the layer and the key: an anchor
    ///   naming a step the clip lacks, a time outside the clip, an exit before its entrance.
    package func scheduled(on sequence: SequenceSpec) throws(SlicevidError) -> LayoutPlan {
        let moments = ClipMoments(plan: SequencePlan(spec: sequence))
        var plan = self
        plan.schedules = []
        for layer in overLayers {
            guard case .over(let timing) = layer.placement else { continue }
            do {
                plan.schedules.append(try LayerSchedule(timing, moments: moments))
            } catch {
                throw SlicevidError(.usage, "\(setting: .layout) \(InputText.quoted(file)): \(layer.name): \(error.key): \(error.message)")
            }
        }
        return plan
    }

    /// One line per over layer that moves or fades, for a dry run: when it shows, and its
    /// entrance and exit with their anchors and easings, in seconds of the clip.
    package var scheduleLines: [String] {
        zip(overLayers, schedules).compactMap { layer, schedule in
            guard schedule.entrance != nil || schedule.exit != nil else { return nil }
            func seconds(_ value: Double) -> String { value.rounded(toPlaces: 3).shortText }
            func phase(_ word: String, _ phase: LayerSchedule.Phase?) -> String? {
                phase.map { phase in
                    // A word or line reveal: the first unit's times, and the next ones' stagger.
                    var each = ""
                    if case .reveal(let unit, let stagger, _) = phase.effect, unit != .cluster {
                        each = " \(unit == .word ? "the first word" : "the first line"), one more every \(seconds(stagger)) s"
                    }
                    return "\(word) \(phase.effect) \(seconds(phase.start))–\(seconds(phase.end)) s\(each) (at \(phase.anchor), \(phase.easing))"
                }
            }
            let parts = ["shows \(seconds(schedule.from))–\(seconds(schedule.until)) s", phase("in", schedule.entrance), phase("out", schedule.exit)]
            return "\(layer.name): " + parts.compactMap { $0 }.joined(separator: "; ")
        }
    }
}
