// `make` with URL stills fetches them all ahead at once; when one fails, the others' transfers
// must end before make returns its error: a transfer still inside libcurl and OpenSSL when the
// process exits crashed it (signal 11 in OpenSSL's exit handlers, after the error was printed).

import Foundation
import SliceKit
import SliceMedia
@testable import SlicePipeline
import StillFixtures
import Testing

@Suite(.timeLimit(.minutes(5))) struct MakeRemotePrefetchTests {
    @Test func aFailedURLLeavesNoTransferRunningWhenMakeReturns() throws {
        let folder = NSTemporaryDirectory() + "slicevid-make-prefetch-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/files", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try AssetServer(root: folder + "/files")
        defer { server.stop() }
        var request = try MakeRequest.parsing(stills: [server.base + "/status/404", server.base + "/stall"], outputs: [folder + "/out.mp4"])
        request.remote = RemoteOptions(cacheFolder: folder + "/cache")
        request.remote.attempts = 1
        let remote = RemoteAssets(options: request.remote)
        var refused: SlicevidError?
        do throws(SlicevidError) {
            _ = try request.fetchingRemoteInputs(cancellation: Cancellation(), remote: remote)
        } catch {
            refused = error
        }
        #expect(refused?.message.contains("/status/404") == true, "\(String(describing: refused))")
        // The stalled transfer was stopped and its thread had ended before make returned.
        #expect(remote.prefetchThreadsRunning == 0)
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.mp4"))
    }
}
