// The slicevid binary the tests were built with: SwiftPM puts the test bundle and the products
// in the same `.build/<triple>/debug/` folder. Library tests decode SVG, HEIC, AVIF and JPEG XL
// through it, as their decode helper.

import Foundation

/// Finds the built `slicevid` beside the running test executable.
package enum BuiltSlicevid {
    /// Its path, or nil when it was not built (`swift build --build-tests` builds it).
    package static let path: String? = {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        let candidate = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("slicevid").path
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }()
}
