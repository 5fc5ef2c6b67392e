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

    /// A run's choice of interface to keep clear of: the layout's own, none, or a platform's.
    public enum Choice: Sendable, Equatable {
        /// Whatever the layout says for the frame's aspect (none when it says nothing).
        case fromLayout
        /// No check, whatever the layout says.
        case none
        case platform(SafeZone)

        /// The zone this choice names by itself: nil for none, and for the layout's (which
        /// only a layout can say).
        public var zone: SafeZone? {
            if case .platform(let zone) = self { zone } else { nil }
        }

        /// The zone checked for `layout` drawn on `width` × `height` frames: a variant may name
        /// its own (`"9:16": {"safe-zone": "reels", …}`).
        public func resolved(_ layout: Layout?, width: Int, height: Int) -> SafeZone? {
            switch self {
            case .fromLayout: layout?.safeZone(forWidth: width, height: height)
            case .none: nil
            case .platform(let zone): zone
            }
        }

        /// `tiktok`, `none`: what a flag or a manifest field holds.
        public init?(parsing text: String) {
            if text == "none" { self = .none } else if let zone = SafeZone(rawValue: text) { self = .platform(zone) } else { return nil }
        }
    }

    /// The names `--safe-zone` accepts.
    public static let accepted = (allCases.map(\.rawValue) + ["none"]).joined(separator: ", ")
}
