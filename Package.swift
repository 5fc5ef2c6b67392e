// swift-tools-version:6.0
// slicevid: slice-transition videos from stills, encoded with FFmpeg's libraries.
import PackageDescription

/// Where Debian keeps the headers of Pango, Cairo, fontconfig and the headers they include
/// (`pkg-config --cflags pangocairo pangoft2 fontconfig`), for CText's C files only: its header,
/// the one Swift sees, includes none of them. glib's configuration header sits in the
/// machine's multiarch folder.
#if arch(arm64)
let multiarch = "aarch64-linux-gnu"
#else
let multiarch = "x86_64-linux-gnu"
#endif
let textHeaders = ["pango-1.0", "glib-2.0", "harfbuzz", "freetype2", "cairo"]
    .map { "-I/usr/include/\($0)" } + ["-I/usr/lib/\(multiarch)/glib-2.0/include"]

/// One settings list for every target, so the whole package speaks one dialect.
let settings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "slicevid",
    products: [
        .executable(name: "slicevid", targets: ["slicevid"]),
        // slicevid for other Swift programs: make, presets and batch (docs/library.md).
        .library(name: "Slicevid", targets: ["Slicevid"]),
    ],
    targets: [
        // C floor: FFmpeg's headers (and zlib's, to check a TIFF's deflated strips) plus shims
        // for the macros Swift cannot import.
        .systemLibrary(
            name: "CFFmpeg",
            path: "Sources/CFFmpeg",
            pkgConfig: "libavformat",
            providers: [.apt(["pkg-config", "libavcodec-dev", "libavformat-dev", "libavfilter-dev", "libswscale-dev", "libavutil-dev", "zlib1g-dev"])]
        ),
        // OpenSSL's libcrypto (libssl-dev): SHA-256 for fingerprints, fonts and the cache, with the
        // SHA instructions of the machine (4-5x libavutil's on the project's VM). FFmpeg's
        // own dependencies load it already, so linking it costs no start-up.
        .systemLibrary(
            name: "CCrypto",
            path: "Sources/CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // Little CMS 2: embedded ICC profiles and tagged primaries converted to sRGB.
        .systemLibrary(
            name: "CLcms2",
            path: "Sources/CLcms2",
            pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"])]
        ),
        // libheif (libheif-dev, which `make deps` installs): HEIC and AVIF stills, with their ICC
        // profile or nclx tags, irot/imir and alpha. Opened with dlopen on the first HEIF, not
        // linked, so other runs do not pay its start-up; the header gives the types.
        .target(name: "CHeif"),
        // libavfilter's C API for the audio bed, opened with dlopen on the first song: its thirty
        // or so libraries doubled every run's start-up when linked. FFmpeg's headers give the types.
        .target(name: "CAVFilter"),
        // Pango (HarfBuzz, FriBidi), PangoCairo, Cairo and fontconfig for text layers
        // (libpango1.0-dev, libcairo2-dev, libfontconfig-dev, which `make deps` installs). Opened
        // with dlopen on the first text layer, not linked, so runs without text keep their
        // start-up; the C files drive them and CText.h gives Swift a small API of its own.
        .target(name: "CText", cSettings: [.unsafeFlags(textHeaders)]),
        // libcurl (libcurl4-openssl-dev, which `make deps` installs) for remote inputs: opened
        // with dlopen on the first URL, not linked (it brings TLS, HTTP/2 and SSH libraries
        // every run would load); one C call makes one bounded transfer.
        .target(name: "CCurl"),
        // Linux calls Glibc's Swift module leaves out (renameat2, memfd, posix_spawn's file
        // actions for the decode helper), and the stop signals' handler, as small C wrappers.
        .target(name: "CPlatform", linkerSettings: [.linkedLibrary("m")]),
        // The 8-bit still warp (StillWarp), in C for the vector instructions chosen at run time
        // (AVX-512, AVX2), plain C on machines without; the same bytes either way.
        .target(name: "CWarp"),
        // Swift (and CWarp's kernel): easing, strips, timeline, compositor. Knows nothing of FFmpeg.
        .target(name: "SliceKit", dependencies: ["CWarp"], swiftSettings: settings),
        // FFmpeg-backed decoding, fitting, encoding and muxing.
        .target(name: "SliceMedia", dependencies: ["CFFmpeg", "CCrypto", "CAVFilter", "CLcms2", "CHeif", "CText", "CCurl", "CPlatform", "SliceKit"], swiftSettings: settings),
        // One render: the typed request, make, the render loop, sinks, atomic outputs and their
        // sidecars. Knows no campaign: the campaign modules below import it, never the reverse.
        .target(name: "SlicePipeline", dependencies: ["SliceKit", "SliceMedia", "CPlatform"], swiftSettings: settings),
        // A campaign as written: manifests, job templates and placeholders, feeds, shards, and a
        // job's fingerprint with the reasons it gives to render.
        .target(name: "SliceCampaign", dependencies: ["SliceKit", "SliceMedia", "SlicePipeline"], swiftSettings: settings),
        // What a campaign's runs report: the JSON report and its file, reports read back and
        // merged (`report merge`), and the morning page (`report html`).
        .target(name: "SliceReports", dependencies: ["SliceKit", "SliceMedia", "SlicePipeline", "SliceCampaign"], swiftSettings: settings),
        // Running a campaign: the lock, each job surveyed, run and journalled, the page's
        // posters, `--check`, `--plan`, and orphans with `--prune`.
        .target(name: "SliceBatch", dependencies: ["SliceKit", "SliceMedia", "SlicePipeline", "SliceCampaign", "SliceReports"],
                swiftSettings: settings),
        // The library's public face: a few calls and the types they take and return.
        .target(name: "Slicevid", dependencies: ["SliceKit", "SliceMedia", "SlicePipeline", "SliceCampaign", "SliceReports", "SliceBatch"],
                swiftSettings: settings),
        // The command line: commands, their options, help, completions, logs. A library so
        // tests can parse command lines in-process.
        .target(name: "SlicevidCLI", dependencies: ["Slicevid", "CPlatform"],
                swiftSettings: settings),
        // The executable: only the entry point.
        .executableTarget(name: "slicevid", dependencies: ["SlicevidCLI"], swiftSettings: settings),

        // Stills with colour profiles, HEICs and the like, made in code for the tests (no media
        // is committed); the package's own types and the C libraries only.
        .target(name: "StillFixtures", dependencies: ["SliceKit", "CFFmpeg", "CLcms2", "CHeif"], path: "Tests/StillFixtures",
                swiftSettings: settings, linkerSettings: [.linkedLibrary("heif")]),
        .testTarget(name: "SliceKitTests", dependencies: ["SliceKit"], swiftSettings: settings),
        .testTarget(name: "SliceMediaTests", dependencies: ["SliceMedia", "SliceKit", "StillFixtures"], swiftSettings: settings),
        // A scratch folder with small stills and manifests written from dictionaries, for the
        // render's tests and the campaign modules' tests alike.
        .target(name: "ScratchFixtures", dependencies: ["SlicePipeline", "SliceMedia", "SliceKit"], path: "Tests/ScratchFixtures",
                swiftSettings: settings),
        .testTarget(name: "SlicePipelineTests", dependencies: ["SlicePipeline", "SliceCampaign", "SliceMedia", "SliceKit", "StillFixtures", "ScratchFixtures"],
                    swiftSettings: settings),
        .testTarget(name: "SliceCampaignTests", dependencies: ["SliceCampaign", "SlicePipeline", "SliceMedia", "SliceKit", "ScratchFixtures"],
                    swiftSettings: settings),
        .testTarget(name: "SliceReportsTests", dependencies: ["SliceReports", "SliceCampaign", "SlicePipeline", "SliceKit"], swiftSettings: settings),
        .testTarget(name: "SliceBatchTests", dependencies: ["SliceBatch", "SliceReports", "SliceCampaign", "SlicePipeline", "SliceMedia", "SliceKit",
                                                         "ScratchFixtures"],
                    swiftSettings: settings),
        .testTarget(name: "LibraryTests", dependencies: ["Slicevid"], swiftSettings: settings),
        .testTarget(name: "slicevidTests", dependencies: ["SlicevidCLI", "SlicePipeline", "SliceCampaign", "SliceReports", "SliceBatch", "SliceMedia", "SliceKit", "StillFixtures"],
                    swiftSettings: settings),
    ]
)
