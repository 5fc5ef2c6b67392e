// What the parent asks a decode helper, as its command line: decode a still (at the size it
// is shown, for an SVG) or describe a file for `probe`, under which limits, for which parent.
// The still itself is not named for opening: it arrives as descriptor 3, already checked.

import Foundation
import SliceKit

/// One decode a helper is started for.
struct HelperRequest: Equatable {
    /// What the helper does with the file.
    enum Task: String {
        /// Decode the still and answer with its picture and description.
        case still
        /// Read it as `probe` does and answer with its facts.
        case probe
    }

    var task: Task
    /// The still's name: for messages, and for libavformat, which may tell a format by it.
    var path: String
    /// For a still drawn at any size (SVG): the frame it is shown in, and how it fits.
    var raster: StillDecoder.Raster?
    /// The process that waits for the helper; the helper stops if it is gone.
    var parent: Int32
    var limits: HelperLimits
    /// Tests only: the helper waits to be killed instead of decoding.
    var stall = false

    /// The helper's arguments after its executable's name, starting with the hidden mode.
    var arguments: [String] {
        var list = [DecodeHelper.modeArgument, "task=\(task.rawValue)", "parent=\(parent)",
                    "memory=\(limits.addressSpace)", "cpu=\(limits.cpuSeconds)"]
        if let raster { list += ["frame=\(raster.frame.width)x\(raster.frame.height)", "fit=\(raster.fit.rawValue)"] }
        if stall { list.append("stall=1") }
        // Last, whole: a name may hold '=' and anything else but NUL.
        list.append("path=\(path)")
        return list
    }

    /// The request `arguments` (a helper's own, mode first) stand for; nil when they are not
    /// one the parent makes.
    init?(arguments: [String]) {
        guard arguments.first == DecodeHelper.modeArgument else { return nil }
        var fields: [String: String] = [:]
        for argument in arguments.dropFirst() {
            guard let equals = argument.firstIndex(of: "=") else { return nil }
            fields[String(argument[..<equals])] = String(argument[argument.index(after: equals)...])
        }
        guard let task = fields["task"].flatMap(Task.init(rawValue:)), let path = fields["path"],
              let parent = fields["parent"].flatMap(Int32.init), let memory = fields["memory"].flatMap(UInt64.init),
              let cpu = fields["cpu"].flatMap(UInt64.init) else { return nil }
        self.task = task
        self.path = path
        self.parent = parent
        limits = HelperLimits(addressSpace: memory, cpuSeconds: cpu)
        stall = fields["stall"] == "1"
        if let frame = fields["frame"], let fit = fields["fit"].flatMap(FitMode.init(rawValue:)) {
            let sides = frame.split(separator: "x").compactMap { Int($0) }
            guard sides.count == 2, sides.allSatisfy({ $0 > 0 }) else { return nil }
            raster = StillDecoder.Raster(frame: (sides[0], sides[1]), fit: fit)
        }
    }

    init(task: Task, path: String, raster: StillDecoder.Raster?, parent: Int32, limits: HelperLimits, stall: Bool = false) {
        self.task = task
        self.path = path
        self.raster = raster
        self.parent = parent
        self.limits = limits
        self.stall = stall
    }

    static func == (a: HelperRequest, b: HelperRequest) -> Bool { a.arguments == b.arguments }
}
