// Where stills whose decoders can abort the process (librsvg, libheif, libjxl, AV1 for AVIF)
// are decoded: in a helper process, slicevid itself started in a hidden mode. The process
// host (main.swift) names the executable; a program that embeds the library names one too,
// or those formats are refused, never decoded in its own process.

import Foundation
import Synchronization

/// The decode helper's settings: which executable, and the limits it runs under.
package enum DecodeHelper {
    /// The hidden first argument that starts slicevid as a decode helper.
    package static let modeArgument = "__decode-still"

    /// What a helper is started as and with.
    package struct Configuration: Sendable {
        /// The executable to start (a slicevid binary), or nil: isolated formats are refused.
        package var executable: String?
        /// The limits the helper sets on itself before it reads the still.
        package var limits: HelperLimits
        /// Tests only: the helper waits to be killed instead of decoding, so a test can stop a
        /// run while a helper is certainly alive.
        package var stalls: Bool

        package init(executable: String?, limits: HelperLimits = .standard, stalls: Bool = false) {
            self.executable = executable
            self.limits = limits
            self.stalls = stalls
        }
    }

    private static let configured = Mutex(Configuration(executable: nil))

    /// The executable started as the helper: set once by the process host (slicevid's own
    /// `/proc/self/exe`) or by a program that embeds the library; nil refuses isolated formats
    /// with `.unavailable`.
    package static var executable: String? {
        get { current.executable }
        set { configured.withLock { $0.executable = newValue } }
    }

    /// A configuration for the calls made inside one task only (tests: a tiny address-space
    /// limit, or no helper at all), leaving every other decode of the process as it is.
    @TaskLocal package static var scoped: Configuration?

    /// The configuration in force for this call: the task's own, else the process's.
    static var current: Configuration { scoped ?? configured.withLock { $0 } }
}
