// A layout: the text and pictures placed on a clip, as a layout file describes them — on a card
// (drawn onto a still after it is fitted, so it flies with its strips) or over every frame
// (unsliced: a logo, a legal line). Boxes are fractions of the frame, sizes are pixels at 1080p
// scaled to the frame, so one layout serves every size; variants per aspect (`"9:16": [...]`)
// let a vertical cut place things differently.

import Foundation

/// The layers of a clip, resolved from a layout file (paths absolute, every value checked).
public struct Layout: Sendable, Equatable {
    /// The layout file, as named (messages) and its absolute path (fingerprints, relative paths).
    public var file: String
    /// Font files every text layer may use, in fallback order, before the default set.
    public var fonts: [String]
    /// Layers drawn at every aspect.
    public var layers: [Layer]
    /// Layers for one aspect each; the variant nearest the frame's aspect is drawn too.
    public var variants: [Variant]
    /// The platforms whose interfaces the layers must stay clear of (each checked), unless the
    /// run says others.
    public var safeZones: [SafeZone]
    /// What its text keeps to stay readable (`Readability.swift`).
    public var readability: Readability
    /// The brand file it imports (absolute), whose bytes its jobs' fingerprints follow.
    public var brand: String?

    public init(file: String, fonts: [String] = [], layers: [Layer] = [], variants: [Variant] = [], safeZones: [SafeZone] = [],
                readability: Readability = Readability(), brand: String? = nil) {
        self.file = file
        self.fonts = fonts
        self.layers = layers
        self.variants = variants
        self.safeZones = safeZones
        self.readability = readability
        self.brand = brand
    }

    /// Layers for frames of one aspect.
    public struct Variant: Sendable, Equatable {
        /// `9:16`: width and height in lowest terms.
        public var aspect: Aspect
        public var layers: [Layer]
        /// The interface its frames keep clear of (`"9:16": {"safe-zone": "reels", "layers": …}`):
        /// the layout's own (`.fromLayout`), none, or a platform's. A vertical variant is made
        /// for a platform's feed; a 16:9 one beside it is not.
        public var safeZone: SafeZone.Choice

        public init(aspect: Aspect, layers: [Layer], safeZone: SafeZone.Choice = .fromLayout) {
            self.aspect = aspect
            self.layers = layers
            self.safeZone = safeZone
        }
    }

    /// An aspect ratio as a layout names it (`16:9`).
    public struct Aspect: Sendable, Equatable, CustomStringConvertible {
        public let width: Int
        public let height: Int

        /// `width:height`, each 1…1000.
        public init?(width: Int, height: Int) {
            guard (1...1000).contains(width), (1...1000).contains(height) else { return nil }
            self.width = width
            self.height = height
        }

        /// How far apart two aspects are: the distance of their logarithms, so 9:16 is as far
        /// from 1:1 as 16:9 is.
        func distance(toWidth frameWidth: Int, height frameHeight: Int) -> Double {
            abs(log(Double(width) / Double(height)) - log(Double(frameWidth) / Double(frameHeight)))
        }

        public var description: String { "\(width):\(height)" }
    }

    /// One layer: what is drawn, where, and on what.
    public struct Layer: Sendable, Equatable {
        /// How messages and plans name the layer: `layer 'price'` for a named one, else by its
        /// place, `layer 2` or `9:16 layer 1` (counted from 1).
        public var name: String
        public var placement: Placement
        public var box: Box
        public var content: Content

        public init(name: String, placement: Placement, box: Box, content: Content) {
            self.name = name
            self.placement = placement
            self.box = box
            self.content = content
        }
    }

    /// Where a layer is drawn.
    public enum Placement: Sendable, Equatable {
        /// On a card, after fitting: the layer is cut into strips with it.
        case card(Card)
        /// Over every frame, after the strips, unsliced, with its timing.
        case over(Timing)
    }

    /// Which still a card layer is printed on.
    public enum Card: Sendable, Equatable {
        /// The first still (the outgoing one of a pair).
        case from
        /// The last still (the incoming one of a pair).
        case to
        /// The still at this index of the sequence, from 0.
        case still(Int)
        /// Every still.
        case all

        /// Whether the still at `index` of `count` stills carries the layer.
        public func includes(_ index: Int, of count: Int) -> Bool {
            switch self {
            case .from: index == 0
            case .to: index == count - 1
            case .still(let wanted): index == wanted
            case .all: true
            }
        }
    }

    /// When an `over` layer shows, and how it fades, in seconds of the clip.
    public struct Timing: Sendable, Equatable {
        public var start: Double
        /// nil: to the end of the clip.
        public var end: Double?
        public var fadeIn: Double
        public var fadeOut: Double
        /// How it arrives (`"in"`): shown from the entrance's start instead of `start`.
        public var entrance: Motion?
        /// How it leaves (`"out"`): shown until the exit's end instead of `end`.
        public var exit: Motion?

        public init(start: Double = 0, end: Double? = nil, fadeIn: Double = 0, fadeOut: Double = 0, entrance: Motion? = nil, exit: Motion? = nil) {
            self.start = start
            self.end = end
            self.fadeIn = fadeIn
            self.fadeOut = fadeOut
            self.entrance = entrance
            self.exit = exit
        }

        /// The layer's opacity at `time` in a clip of `length` seconds: 0 outside its time,
        /// rising over `fadeIn` and falling over `fadeOut`.
        public func opacity(at time: Double, clip length: Double) -> Double {
            let end = min(self.end ?? length, length)
            guard time >= start, time <= end else { return 0 }
            var opacity = 1.0
            if fadeIn > 0 { opacity = min(opacity, (time - start) / fadeIn) }
            if fadeOut > 0 { opacity = min(opacity, (end - time) / fadeOut) }
            return max(0, min(1, opacity))
        }
    }

    /// A rectangle as fractions of the frame: left, top, width, height.
    public struct Box: Sendable, Equatable {
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double

        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        /// The box in whole pixels of a `frameWidth` × `frameHeight` frame: edges rounded to
        /// the nearest pixel, at least one pixel a side, inside the frame.
        public func pixels(frameWidth: Int, frameHeight: Int) -> PixelBox {
            let left = min(frameWidth - 1, max(0, Int((x * Double(frameWidth)).rounded())))
            let top = min(frameHeight - 1, max(0, Int((y * Double(frameHeight)).rounded())))
            let right = min(frameWidth, max(left + 1, Int(((x + width) * Double(frameWidth)).rounded())))
            let bottom = min(frameHeight, max(top + 1, Int(((y + height) * Double(frameHeight)).rounded())))
            return PixelBox(x: left, y: top, width: right - left, height: bottom - top)
        }
    }

    /// What a layer shows.
    public enum Content: Sendable, Equatable {
        case text(Text)
        /// A still (a logo), fitted inside the box; its path may hold `{placeholders}`.
        case image(String)
    }

    /// A text layer's words and look. Lengths are pixels at 1080p, scaled to the frame's
    /// shorter side when drawn.
    public struct Text: Sendable, Equatable {
        /// The words, with `{placeholders}` for variables.
        public var template: String
        public var size: Size
        /// Font files of this layer, before the layout's and the default set.
        public var fonts: [String]
        public var family: String?
        public var weight: Int
        public var wrap: Bool
        public var maxLines: Int?
        public var align: Align
        public var verticalAlign: VerticalAlign
        public var lineHeight: Double?
        public var color: RGBAColor
        public var plate: Plate?
        public var outline: Outline?
        public var shadow: Shadow?
        public var ellipsis: Bool
        public var language: String
        /// A shade behind the words, filling the box (`Scrim.swift`).
        public var scrim: Scrim?

        public init(template: String, size: Size = .auto(min: 12, max: 400), fonts: [String] = [], family: String? = nil, weight: Int = 400,
                    wrap: Bool = true, maxLines: Int? = nil, align: Align = .centre, verticalAlign: VerticalAlign = .centre,
                    lineHeight: Double? = nil, color: RGBAColor = RGBAColor(red: 255, green: 255, blue: 255), plate: Plate? = nil,
                    outline: Outline? = nil, shadow: Shadow? = nil, ellipsis: Bool = false, language: String = "und", scrim: Scrim? = nil) {
            self.template = template
            self.size = size
            self.fonts = fonts
            self.family = family
            self.weight = weight
            self.wrap = wrap
            self.maxLines = maxLines
            self.align = align
            self.verticalAlign = verticalAlign
            self.lineHeight = lineHeight
            self.color = color
            self.plate = plate
            self.outline = outline
            self.shadow = shadow
            self.ellipsis = ellipsis
            self.language = language
            self.scrim = scrim
        }

        public enum Size: Sendable, Equatable {
            /// The em size in pixels at 1080p.
            case pixels(Double)
            /// The largest size between `min` and `max` (pixels at 1080p) that fits the box.
            case auto(min: Double, max: Double)
        }

        public enum Align: String, Sendable, CaseIterable { case start, centre, end }
        public enum VerticalAlign: String, Sendable, CaseIterable { case top, centre, bottom }

        /// A rectangle behind the text.
        public struct Plate: Sendable, Equatable {
            public var color: RGBAColor
            public var padding: Double
            public var radius: Double

            public init(color: RGBAColor, padding: Double = 0, radius: Double = 0) {
                self.color = color
                self.padding = padding
                self.radius = radius
            }
        }

        public struct Outline: Sendable, Equatable {
            public var width: Double
            public var color: RGBAColor

            public init(width: Double, color: RGBAColor) {
                self.width = width
                self.color = color
            }
        }

        public struct Shadow: Sendable, Equatable {
            public var x: Double
            public var y: Double
            public var blur: Double
            public var color: RGBAColor

            public init(x: Double, y: Double, blur: Double = 0, color: RGBAColor) {
                self.x = x
                self.y = y
                self.blur = blur
                self.color = color
            }
        }
    }

    /// The layers drawn on frames of `width` × `height`: every aspect's, then the nearest
    /// variant's; and that variant.
    public func layers(forWidth width: Int, height: Int) -> (layers: [Layer], variant: Aspect?) {
        guard let nearest = variant(forWidth: width, height: height) else { return (layers, nil) }
        return (layers + nearest.layers, nearest.aspect)
    }

    /// The variant nearest the aspect of `width` × `height` frames, if the layout has any.
    public func variant(forWidth width: Int, height: Int) -> Variant? {
        variants.min(by: { $0.aspect.distance(toWidth: width, height: height) < $1.aspect.distance(toWidth: width, height: height) })
    }

    /// The interfaces `width` × `height` frames keep clear of: the drawn variant's own choice,
    /// else the layout's.
    public func safeZones(forWidth width: Int, height: Int) -> [SafeZone] {
        switch variant(forWidth: width, height: height)?.safeZone ?? .fromLayout {
        case .fromLayout: safeZones
        case .none: []
        case .platforms(let zones): zones
        }
    }
}

/// A rectangle in whole pixels of a frame.
public struct PixelBox: Sendable, Equatable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height) at \(x),\(y)" }
}
