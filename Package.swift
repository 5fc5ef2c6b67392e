// swift-tools-version:6.0
// slicevid: slice-transition videos from stills, encoded with FFmpeg's libraries.
import PackageDescription

/// One settings list for every target, so the whole package speaks one dialect.
let settings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "slicevid",
    products: [
        .executable(name: "slicevid", targets: ["slicevid"]),
        // slicevid for other Swift programs: make, presets and batch (README, "As a library").
        .library(name: "Slicevid", targets: ["Slicevid"]),
    ],
    targets: [
        // C floor: FFmpeg's headers (and zlib's, to check a TIFF's deflated strips) plus shims
        // for the macros Swift cannot import.
        .systemLibrary(
            name: "CFFmpeg",
            path: "Sources/CFFmpeg",
            pkgConfig: "libavformat",
            providers: [.apt(["pkg-config", "libavcodec-dev", "libavformat-dev", "libswscale-dev", "libavutil-dev", "zlib1g-dev"])]
        ),
        // Linux calls Glibc's Swift module leaves out (renameat2), as small C wrappers.
        .target(name: "CPlatform", linkerSettings: [.linkedLibrary("m")]),
        // Pure Swift: easing, strips, timeline, compositor. Knows nothing of FFmpeg.
        .target(name: "SliceKit", swiftSettings: settings),
        // FFmpeg-backed decoding, fitting, encoding and muxing.
        .target(name: "SliceMedia", dependencies: ["CFFmpeg", "SliceKit"], swiftSettings: settings),
        // Render window, ordering buffer, sinks, jobs.
        .target(name: "SlicePipeline", dependencies: ["SliceKit", "SliceMedia", "CPlatform"], swiftSettings: settings),
        // The library's public face: a few calls and the types they take and return.
        .target(name: "Slicevid", dependencies: ["SliceKit", "SliceMedia", "SlicePipeline"], swiftSettings: settings),
        // The command line: commands, their options, help, completions, logs. A library so
        // tests can parse command lines in-process.
        .target(name: "SlicevidCLI", dependencies: ["Slicevid", "SliceKit", "SliceMedia", "SlicePipeline"], swiftSettings: settings),
        // The executable: only the entry point.
        .executableTarget(name: "slicevid", dependencies: ["SlicevidCLI"], swiftSettings: settings),

        .testTarget(name: "SliceKitTests", dependencies: ["SliceKit"], swiftSettings: settings),
        .testTarget(name: "SliceMediaTests", dependencies: ["SliceMedia", "SliceKit"], swiftSettings: settings),
        .testTarget(name: "SlicePipelineTests", dependencies: ["SlicePipeline", "SliceMedia", "SliceKit"], swiftSettings: settings),
        .testTarget(name: "LibraryTests", dependencies: ["Slicevid"], swiftSettings: settings),
        .testTarget(name: "slicevidTests", dependencies: ["SlicevidCLI", "SlicePipeline", "SliceMedia", "SliceKit"], swiftSettings: settings),
    ]
)
