// Requests as the render's tests build them: from `make`-like strings, and the category a refused
// one raises.

import SliceKit
import SliceMedia
@testable import SlicePipeline

extension MakeRequest {
    /// A request the way `make`'s flags give one: outputs as `-o` values (`-` and `null`
    /// included), stills as paths (none: the demo cards; two: a pair; more: a sequence).
    static func parsing(spec: TransitionSpec = TransitionSpec(), stills paths: [String] = [], outputs: [String],
                        encoder: EncoderSettings = EncoderSettings(), force: Bool = false,
                        jobs: Int = 2) throws(SlicevidError) -> MakeRequest {
        var parsed: [Output] = []
        for text in outputs { parsed.append(try Output(parsing: text, names: ["-": .standardOutput, "null": .discard])) }
        let stills: Stills = switch paths.count {
        case 0: .demo
        case 2: .pair(from: paths[0], to: paths[1])
        default: .sequence(paths)
        }
        return try MakeRequest(stills: stills, outputs: parsed, spec: spec, encoder: encoder, force: force, renderThreads: jobs)
    }
}

/// The category of the error building or running a request raises; nil when it renders.
func refusalCategory(_ request: () throws(SlicevidError) -> MakeRequest) -> SlicevidError.Category? {
    do { _ = try MakeJob.run(try request()); return nil } catch { return error.category }
}
