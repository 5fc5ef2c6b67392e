// A library caller's fetch bounds out of their ranges are brought within them before a
// transfer uses them: a negative redirect count (libcurl's "without end") follows none against
// a real redirect loop, counted by the server; no attempt count or size cap is below one, and no
// duration overflows its conversion to milliseconds.

import Foundation
import SliceKit
@testable import SliceMedia
import StillFixtures
import Testing

@Suite(.timeLimit(.minutes(5))) struct RemoteOptionsTests {
    @Test func everyBoundOutOfItsRangeIsBroughtWithinIt() {
        var wild = RemoteOptions()
        wild.connectTimeout = .seconds(Int64.max)
        wild.stallTimeout = .zero
        wild.maxBytes = [.still: -5, .song: Int.max]
        wild.maxRedirects = -1
        wild.attempts = 0
        wild.perHost = -3
        wild.retryDelay = .seconds(-1)
        wild.longestRetryWait = .seconds(-1)
        let bounded = wild.bounded
        #expect(bounded.connectTimeout == .seconds(RemoteOptions.connectSecondsRange.upperBound))
        #expect(bounded.stallTimeout == .seconds(1))
        #expect(bounded.maxBytes[.still] == 1 && bounded.maxBytes[.song] == RemoteOptions.maxBytesRange.upperBound)
        // A kind the caller left out keeps its default.
        #expect(bounded.maxBytes[.font] == 64_000_000 && bounded.maxBytes[.layoutImage] == 100_000_000 && bounded.maxBytes[.layout] == 16_000_000)
        #expect(bounded.maxRedirects == 0 && bounded.attempts == 1 && bounded.perHost == 1)
        #expect(bounded.retryDelay == .zero && bounded.longestRetryWait == .zero)

        // Values within their ranges are the caller's, a connect timeout's milliseconds included.
        var fine = RemoteOptions()
        fine.connectTimeout = .milliseconds(250)
        fine.maxRedirects = 0
        fine.attempts = 10
        #expect(fine.bounded == fine)
        #expect(RemoteOptions().bounded == RemoteOptions())
    }

    @Test func aNegativeRedirectCountFollowsNoRedirect() throws {
        let folder = NSTemporaryDirectory() + "slicevid-remote-options-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let server = try AssetServer(root: folder)
        defer {
            server.stop()
            try? FileManager.default.removeItem(atPath: folder)
        }
        var options = RemoteOptions(cacheFolder: folder + "/cache")
        options.maxRedirects = -1
        let assets = RemoteAssets(options: options)
        var refusal: MediaError?
        do throws(MediaError) {
            _ = try assets.fetch(RemoteURL(server.base + "/loop")!, kind: .still) { false }
        } catch {
            refusal = error
        }
        #expect(refusal?.message.contains("more than 0 redirects") == true, "\(String(describing: refusal))")
        #expect(try server.stats().byPath["/loop"] == 1)
    }
}
