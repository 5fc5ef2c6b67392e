// Moving a finished output into place: each file by a rename that replaces only what the
// licence allows (renameat2 RENAME_NOREPLACE otherwise), a sequence all or nothing, and a
// batch output's sidecar in the same step, so no signal can separate the two.

import Foundation
import Glibc
import SliceKit

extension OutputTarget {
    /// One finished file and the name it takes.
    struct Move {
        let temporary: String
        let final: String
        /// Its frame number (0 for a single file), which the licence is kept by.
        let index: Int
    }

    /// Moves the finished output into place. A file already at a final name is replaced (or,
    /// for a sequence's old frames past the new last one, deleted) only when `replacing`
    /// allows it; anything else, including a file that appeared during the render, fails the
    /// commit with every file back where it was.
    /// - Parameters:
    ///   - record: makes the output's sidecar from the stamps of the files being committed, in
    ///     frame order (a rename keeps size, inode and time); nil writes none.
    ///   - committed: hears the sidecar once output and sidecar are both in place, still
    ///     inside the commit (a batch's journal, so a second signal's report agrees with disk).
    /// - Throws: `SlicevidError`: outputBlocked (73) when a final name is taken by something
    ///   the licence does not cover; outputFailed (74) when a move or the sidecar fails.
    package func commit(frames: Int? = nil, recording record: (([FileStamp]) -> OutputRecord)? = nil,
                       then committed: ((OutputRecord) -> Void)? = nil) throws(SlicevidError) {
        guard !isStream else { return }
        // Under the registry's lock: an exit on a second signal waits for the move to finish.
        try OutputTarget.unfinished.withLock { (places: inout [String: [String]]) throws(SlicevidError) in
            // Never move what is no longer there: with --force, an empty sequence would
            // otherwise count as zero new frames and the old ones would be removed as its tail.
            guard places[place] != nil else {
                throw SlicevidError(.outputFailed, "\(output: path): its temporary files are gone; nothing was moved into place")
            }
            let moves = try finishedFiles(frames: frames)
            var sidecar: (path: String, record: OutputRecord)?
            if let record {
                let stamps = moves.compactMap { FileStamp(path: $0.temporary) }
                guard stamps.count == moves.count else {
                    throw SlicevidError(.outputFailed, "\(output: path): a temporary file vanished before it was moved into place")
                }
                let file = temporaryFolder.map { $0 + "/sidecar.json" } ?? sideName(".json")
                let made = record(stamps)
                try made.writeNew(at: file)
                sidecar = (file, made)
            }
            do throws(SlicevidError) {
                try moveIntoPlace(moves)
            } catch {
                if let sidecar { FileSystem.unlink(sidecar.path) }
                throw error
            }
            // The output is in place: whatever happens next, its temporaries go.
            places.removeValue(forKey: place)
            defer { if let temporaryFolder { OutputTarget.remove(temporaryFolder) } }
            guard let sidecar else { return }
            // Checked before the render too; looked at again here, since rename(2) would
            // replace a FIFO or a device that appeared meanwhile.
            let problem = OutputRecord.placeProblem(OutputRecord.sidecarPath(for: path))
            guard problem == nil, FileSystem.rename(sidecar.path, OutputRecord.sidecarPath(for: path)) == 0 else {
                let reason = problem.map { "its name \($0.what)" } ?? String(cString: strerror(errno))
                FileSystem.unlink(sidecar.path)
                throw SlicevidError(.outputFailed, "\(OutputRecord.sidecarPath(for: path)): cannot record the output (\(reason)); it was written, but without its record a re-run must be given \(setting: .force) to replace it")
            }
            committed?(sidecar.record)
        }
    }

    /// A name beside a single-file output, carrying this target's tag (`.NAME.slicevid-PID-N` +
    /// `suffix`), which stale clean-up recognises.
    func sideName(_ suffix: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().path + "/." + url.lastPathComponent + tag + suffix
    }

    /// The finished files and their final names: the one file, or a sequence's frames, which
    /// must be numbered from 0 without a gap, `frames` of them when given, and at least one:
    /// a muxer that wrote its frames under other names must fail the run, not commit nothing.
    private func finishedFiles(frames: Int?) throws(SlicevidError) -> [Move] {
        guard let temporaryFolder, let (final, written) = self.frames else {
            // What was written went through the descriptor: the name must still be that file,
            // or the move would put someone else's file (or link) in place.
            if let file, folderDescriptor >= 0, !file.isNamed(located(temporaryPath), in: folderDescriptor) {
                throw SlicevidError(.outputFailed, "\(output: path): its temporary file \(temporaryPath) was replaced during the render; nothing was moved into place")
            }
            return [Move(temporary: temporaryPath, final: path, index: 0)]
        }
        guard let listed = FileSystem.names(inFolder: temporaryFolder) else {
            throw SlicevidError(.outputFailed, "\(output: path): cannot read its temporary folder \(temporaryFolder)")
        }
        let indices = listed.compactMap { written.index(of: $0) }.sorted()
        let expected = frames ?? max(1, indices.count)
        guard indices == Array(0..<expected) else {
            throw SlicevidError(.outputFailed, "\(output: path): its temporary folder holds \(indices.count) frames where frames 0…\(expected - 1) were written; nothing was moved into place")
        }
        return indices.map { Move(temporary: written.path($0), final: final.path($0), index: $0) }
    }

    /// Moves every file, setting aside what the licence lets it replace, then deletes what was
    /// set aside. On any failure, undoes every move and restores what was set aside.
    private func moveIntoPlace(_ moves: [Move]) throws(SlicevidError) {
        var placed: [Move] = []
        var setAside: [(final: String, aside: String)] = []
        func undo(_ error: SlicevidError) -> SlicevidError {
            for move in placed.reversed() { _ = FileMove.withoutReplacing(located(move.final), located(move.temporary), in: moveFolder) }
            let stranded = setAside.reversed().filter { FileMove.withoutReplacing(located($0.aside), located($0.final), in: moveFolder) != .moved }
            guard let first = stranded.first else { return error }
            // Only if someone took a name back meanwhile: say where the earlier file went.
            return SlicevidError(error.category, "\(error.text) (the earlier \(first.final) is now \(first.aside))")
        }
        func taken(_ file: String, _ why: String) -> SlicevidError {
            // The start of the run found nothing there, so whatever is there now is new.
            let why = if case .nothing = replacing { "appeared during the render" } else { why }
            return OutputTarget.blocked(path, file: file, why + "; nothing was replaced", remedy: replacing.remedy)
        }
        func failed(_ file: String, _ why: String) -> SlicevidError {
            SlicevidError(.outputFailed, "\(output: path): cannot move \(file) into place (\(why)); nothing was replaced")
        }
        // Moves the file at `final` aside when the licence covers it; a file swapped in
        // between the verdict and the move is caught by judging what was actually moved.
        func putAside(_ final: String, index: Int) throws(SlicevidError) {
            switch replacing.verdict(final, index: index) {
            case .free: return
            case .foreign(let why): throw undo(taken(final, why))
            case .ours: break
            }
            let aside = try asideName(for: final)
            guard case .moved = FileMove.replacing(located(final), located(aside), in: moveFolder) else { throw undo(failed(final, "cannot set the earlier file aside")) }
            setAside.append((final, aside))
            if case .foreign(let why) = replacing.verdict(aside, index: index) { throw undo(taken(final, why)) }
        }

        if let pattern = frames?.final, !replacing.isAnything {
            // Frames the new sequence will not overwrite must be covered too, or the result
            // would mix old and new frames; checked before anything moves.
            for frame in pattern.existing() where frame.index >= moves.count {
                if case .foreign(let why) = replacing.verdict(pattern.path(frame.index), index: frame.index) {
                    throw taken(pattern.path(frame.index), why)
                }
            }
        }
        for move in moves {
            let outcome: FileMove.Outcome
            if case .anything = replacing, temporaryFolder == nil {
                // --force on one file: rename(2) is the atomic replace; only a folder stops it.
                if case .foreign(let why) = replacing.verdict(move.final, index: 0) { throw undo(taken(move.final, why)) }
                outcome = FileMove.replacing(located(move.temporary), located(move.final), in: moveFolder)
            } else {
                // The no-replace move is the guard; only when the name is taken is what holds it
                // judged, set aside if the licence covers it, and the move tried again.
                var attempt = FileMove.withoutReplacing(located(move.temporary), located(move.final), in: moveFolder)
                if attempt == .taken, !replacing.isNothing {
                    try putAside(move.final, index: move.index)
                    attempt = FileMove.withoutReplacing(located(move.temporary), located(move.final), in: moveFolder)
                }
                outcome = attempt
            }
            switch outcome {
            case .moved: placed.append(move)
            case .taken: throw undo(taken(move.final, "appeared during the render"))
            case .failed(let why): throw undo(failed(move.final, why))
            }
        }
        // A sequence's old frames past the new last one: readers take every consecutive
        // number, so they go too — those the licence covers, and only then.
        if let pattern = frames?.final {
            switch replacing {
            case .nothing: break
            case .anything:
                var index = moves.count
                while case .ours = replacing.verdict(pattern.path(index), index: index) {
                    try putAside(pattern.path(index), index: index)
                    index += 1
                }
            case .recorded(let stamps, _):
                for index in moves.count..<max(moves.count, stamps.count) { try putAside(pattern.path(index), index: index) }
            }
        }
        for file in setAside { FileSystem.unlink(file.aside) }
    }

    /// How FileMove names `file`: a single file's name within its pinned folder, a
    /// sequence's frames by path.
    private func located(_ file: String) -> String {
        folderDescriptor >= 0 ? URL(fileURLWithPath: file).lastPathComponent : file
    }

    /// The folder FileMove's names are relative to.
    private var moveFolder: Int32 { folderDescriptor >= 0 ? folderDescriptor : AT_FDCWD }

    /// Where the file at `final` waits while its replacement moves in: beside a single file,
    /// or in the sequence's temporary folder.
    private func asideName(for final: String) throws(SlicevidError) -> String {
        guard let temporaryFolder else { return sideName(".replaced") }
        let folder = temporaryFolder + "/replaced"
        if FileSystem.mkdir(folder, 0o700) != 0 && errno != EEXIST {
            throw SlicevidError(.outputFailed, "\(output: path): cannot create \(folder) (\(String(cString: strerror(errno))))")
        }
        return folder + "/" + URL(fileURLWithPath: final).lastPathComponent
    }
}
