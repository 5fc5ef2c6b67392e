// The parts of a vertical frame a platform's own interface covers (its tabs, captions, buttons),
// as insets of a 1080x1920 frame, scaled to the frame. A layer that reaches into one is refused
// before anything renders, so a price never sits under a Like button. The figures are
// conservative design overlays drawn from each platform's published guidance, not measurements
// of one phone: docs/layouts.md lists where each comes from.

/// A platform's interface areas.
public enum SafeZone: String, Sendable, CaseIterable {
    /// TikTok's feed: tabs at the top, the caption and sound at the bottom, the action rail on
    /// the right.
    case tiktok
    /// Instagram Reels: profile and audio at the top, caption and call to action at the bottom.
    case reels
    /// YouTube Shorts: the top bar, title, channel and subscribe at the bottom, buttons on the right.
    case shorts
    /// Instagram and Facebook Stories: the progress bar and profile at the top, the reply bar at
    /// the bottom.
    case stories

    /// The platform's name as people write it.
    public var displayName: String {
        switch self {
        case .tiktok: "TikTok"
        case .reels: "Instagram Reels"
        case .shorts: "YouTube Shorts"
        case .stories: "Stories"
        }
    }

    /// What each inset covers, for messages.
    public func covers(_ edge: Edge) -> String {
        switch (self, edge) {
        case (.tiktok, .top): "the Following / For You tabs"
        case (.tiktok, .bottom): "the caption and sound"
        case (.tiktok, .right): "the like, comment and share buttons"
        case (.reels, .top): "the profile and audio"
        case (.reels, .bottom): "the caption and call to action"
        case (.shorts, .top): "the top bar"
        case (.shorts, .bottom): "the title, channel and subscribe button"
        case (.shorts, .right): "the like, comment and share buttons"
        case (.stories, .top): "the progress bar and profile"
        case (.stories, .bottom): "the reply bar"
        case (_, .left): "the left edge"
        case (_, .right): "the right edge"
        }
    }

    /// An edge of the frame.
    public enum Edge: String, Sendable, CaseIterable {
        case top, bottom, left, right
    }

    /// The insets at 1080x1920, in pixels: top, bottom, left, right.
    public var referenceInsets: (top: Int, bottom: Int, left: Int, right: Int) {
        switch self {
        case .tiktok: (150, 480, 60, 150)
        case .reels: (250, 670, 65, 65)
        case .shorts: (140, 480, 50, 180)
        case .stories: (250, 250, 0, 0)
        }
    }

    /// The inset at `edge` for a `width` × `height` frame: the 1080x1920 figure scaled by the
    /// frame's height (top, bottom) or width (left, right), rounded up.
    public func inset(_ edge: Edge, width: Int, height: Int) -> Int {
        let insets = referenceInsets
        func scaled(_ pixels: Int, _ side: Int, _ reference: Int) -> Int { (pixels * side + reference - 1) / reference }
        switch edge {
        case .top: return scaled(insets.top, height, 1920)
        case .bottom: return scaled(insets.bottom, height, 1920)
        case .left: return scaled(insets.left, width, 1080)
        case .right: return scaled(insets.right, width, 1080)
        }
    }

    /// How far `box` reaches into each of the interface's areas on a `width` × `height`
    /// frame, in pixels; empty when it stays clear.
    public func intrusions(of box: PixelBox, width: Int, height: Int) -> [(edge: Edge, pixels: Int)] {
        var found: [(Edge, Int)] = []
        let top = inset(.top, width: width, height: height) - box.y
        let bottom = box.y + box.height - (height - inset(.bottom, width: width, height: height))
        let left = inset(.left, width: width, height: height) - box.x
        let right = box.x + box.width - (width - inset(.right, width: width, height: height))
        for (edge, pixels) in [(Edge.top, top), (.bottom, bottom), (.left, left), (.right, right)] where pixels > 0 {
            found.append((edge, pixels))
        }
        return found
    }

    /// A run's choice of interfaces to keep clear of: the layout's own, none, or one or more
    /// platforms' (a 9:16 master posted to TikTok, Reels and Shorts keeps clear of all three).
    public enum Choice: Sendable, Equatable {
        /// Whatever the layout says for the frame's aspect (none when it says nothing).
        case fromLayout
        /// No check, whatever the layout says.
        case none
        /// These platforms' interfaces, each checked: at least one, none twice, in the order
        /// written.
        case platforms([SafeZone])

        /// One platform's interface.
        public static func platform(_ zone: SafeZone) -> Choice { .platforms([zone]) }

        /// The zones this choice names by itself: empty for none, and for the layout's (which
        /// only a layout can say).
        public var zones: [SafeZone] {
            if case .platforms(let zones) = self { zones } else { [] }
        }

        /// The zones checked for `layout` drawn on `width` × `height` frames: a variant may name
        /// its own (`"9:16": {"safe-zone": ["tiktok", "reels"], …}`).
        public func resolved(_ layout: Layout?, width: Int, height: Int) -> [SafeZone] {
            switch self {
            case .fromLayout: layout?.safeZones(forWidth: width, height: height) ?? []
            case .none: []
            case .platforms(let zones): zones
            }
        }

        /// `tiktok`, `tiktok,reels`, `none`: what a flag holds.
        public init?(parsing text: String) {
            if text == "none" {
                self = .none
                return
            }
            self.init(names: text.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
        }

        /// A manifest's or layout's `safe-zone`: `"tiktok"`, `"none"` or `["tiktok", "reels"]`;
        /// nil for anything else (an empty list, a name twice, `none` in a list).
        public init?(json value: Any) {
            if let text = value as? String {
                guard text == "none" || SafeZone(rawValue: text) != nil else { return nil }
                self.init(parsing: text)
            } else if let list = value as? [Any], list.count <= SafeZone.allCases.count {
                let names = list.compactMap { $0 as? String }
                guard names.count == list.count else { return nil }
                self.init(names: names)
            } else {
                return nil
            }
        }

        /// One or more platforms' names, each once.
        private init?(names: [String]) {
            var zones: [SafeZone] = []
            for name in names {
                guard let zone = SafeZone(rawValue: name), !zones.contains(zone) else { return nil }
                zones.append(zone)
            }
            guard !zones.isEmpty else { return nil }
            self = .platforms(zones)
        }
    }

    /// The names `--safe-zone` accepts.
    public static let accepted = (allCases.map(\.rawValue) + ["none"]).joined(separator: ", ")
    /// What a manifest's or layout's `safe-zone` accepts, for messages.
    public static let acceptedInFiles = "one of \(accepted), or a list of platforms such as [\"tiktok\", \"reels\", \"shorts\"] (each once)"

    /// `TikTok's`, `TikTok's, Instagram Reels' and YouTube Shorts'`: whose interfaces, for messages.
    public static func possessive(_ zones: [SafeZone]) -> String {
        let names = zones.map { $0.displayName.hasSuffix("s") ? "\($0.displayName)'" : "\($0.displayName)'s" }
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + names.last!
    }
}
