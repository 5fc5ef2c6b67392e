// A font file's header and table directories read by us, before FreeType or fontconfig sees a
// byte: how big it says it unpacks to (a WOFF's totalSfntSize and tables' origLength), how
// many faces a collection lists, how many tables and named instances each face has. A font
// bomb — a 1.3 MB WOFF that unpacks to 1 GiB, a .ttc listing a million faces, each of which
// fontconfig would scan — is refused here, in a moment and without allocating anything.

/// What a font file holds, as its header and table directories say, checked against `Limits`.
struct FontContainer: Equatable {
    /// The file's kind.
    enum Kind: Equatable {
        /// One OpenType or TrueType font (`0x00010000`, `OTTO`, `true`).
        case font
        /// A TrueType or OpenType collection (`ttcf`): several fonts sharing tables.
        case collection
        /// A WOFF 1.0 font: tables deflated one by one.
        case woff
        /// A WOFF 2.0 font (or collection): tables transformed and Brotli-compressed together.
        case woff2
    }

    /// The most any font file, or any font unpacked from a WOFF or WOFF2 one, may hold.
    struct Limits {
        /// Bytes of a file, and bytes a web font unpacks to: the largest CJK collections are
        /// about 30 MB.
        static let bytes = 64 << 20
        /// Faces of a collection: real ones hold a few dozen (Source Han's whole family, 44).
        /// fontconfig reads each face's character map, up to 40 ms a face for one that maps all
        /// of Unicode, so the limit is what keeps a hostile collection to a couple of seconds.
        static let faces = 64
        /// Tables of one face: real fonts have 10 to 40.
        static let tables = 256
        /// Named instances of one variable face (fontconfig lists each as a face of its own).
        static let instances = 256
        /// Faces and named instances of the whole file, as fontconfig lists them.
        static let listed = 1024
    }

    let kind: Kind
    /// How many faces the file holds (named instances not counted).
    let faces: Int

    /// Reads the header and table directories of `bytes`.
    /// - Throws: `FontContainer.Refusal`, saying what is wrong and the limit it breaks.
    init(_ bytes: UnsafeRawBufferPointer) throws(Refusal) {
        let reader = FontBytes(bytes)
        guard bytes.count <= Limits.bytes else { throw Refusal("is \(FontBytes.mebibytes(bytes.count)); font files up to \(FontBytes.mebibytes(Limits.bytes)) are accepted") }
        guard let tag = reader.tag(at: 0) else { throw .notAFont }
        switch tag {
        case "ttcf":
            kind = .collection
            faces = try Self.checkCollection(reader)
        case "wOFF":
            kind = .woff
            faces = 1
            try Self.checkWOFF(reader)
        case "wOF2":
            kind = .woff2
            faces = try Self.checkWOFF2(reader)
        default:
            if let format = Self.otherFormat(reader) {
                throw Refusal("is a \(format) font; text layers take OpenType and TrueType fonts (.otf, .ttf, .ttc, .woff, .woff2)")
            }
            guard Self.isFontVersion(tag) else { throw .notAFont }
            kind = .font
            faces = 1
            let instances = try Self.checkFont(reader, at: 0)
            guard 1 + instances <= Limits.listed else { throw Self.tooManyListed(1 + instances) }
        }
    }

    /// Why a font file was refused: the rest of a line that names the file.
    struct Refusal: Error, Equatable {
        let message: String

        init(_ message: String) { self.message = message }

        static let notAFont = Refusal("is not a font (no OpenType, TrueType, collection, WOFF or WOFF2 header); text layers take OpenType and TrueType fonts (.otf, .ttf, .ttc, .woff, .woff2)")

        static func damaged(_ what: String) -> Refusal { Refusal("is damaged: \(what)") }
    }

    /// The font formats fonts come in that text layers do not draw (bitmaps, Type 1), by their
    /// first bytes, so the refusal can say which it is.
    private static func otherFormat(_ reader: FontBytes) -> String? {
        let head = (0..<14).compactMap { reader.uint8(at: $0) }.map { UInt8($0) }
        func starts(_ text: String) -> Bool { head.starts(with: Array(text.utf8)) }
        if starts("STARTFONT") { return "BDF" }
        if starts("\u{1}fcp") { return "PCF" }
        if starts("%!PS-AdobeFont") || starts("%!FontType1") || head.starts(with: [0x80, 0x01]) { return "Type 1" }
        if reader.tag(at: 0) == "typ1" { return "Type 1" }
        return nil
    }

    private static func isFontVersion(_ tag: String) -> Bool { tag == "\u{0}\u{1}\u{0}\u{0}" || tag == "OTTO" || tag == "true" }

    private static func tooManyListed(_ count: Int) -> Refusal {
        Refusal("lists \(count) faces and named instances; at most \(Limits.listed) are accepted")
    }

    /// A collection: its faces, each an OpenType table directory in the same file.
    private static func checkCollection(_ reader: FontBytes) throws(Refusal) -> Int {
        guard let count = reader.uint32(at: 8) else { throw .damaged("its collection header is cut short") }
        guard count >= 1 else { throw .damaged("its collection lists no faces") }
        guard count <= Limits.faces else {
            throw Refusal("is a collection of \(count) faces; at most \(Limits.faces) are accepted")
        }
        var listed = 0
        for face in 0..<count {
            guard let offset = reader.uint32(at: 12 + 4 * face) else { throw .damaged("its list of faces is cut short") }
            guard let tag = reader.tag(at: offset), isFontVersion(tag) else { throw .damaged("face \(face) is not a font") }
            listed += 1 + (try checkFont(reader, at: offset))
            guard listed <= Limits.listed else { throw tooManyListed(listed) }
        }
        return count
    }

    /// One face's table directory at `start`: every table inside the file. Returns its number
    /// of named instances (0 for a font that is not variable).
    private static func checkFont(_ reader: FontBytes, at start: Int) throws(Refusal) -> Int {
        guard let count = reader.uint16(at: start + 4) else { throw .damaged("its table directory is cut short") }
        guard count >= 1 else { throw .damaged("it has no tables") }
        guard count <= Limits.tables else { throw Refusal("has \(count) tables in a face; at most \(Limits.tables) are accepted") }
        var instances = 0
        for table in 0..<count {
            let record = start + 12 + 16 * table
            guard let tag = reader.tag(at: record), let offset = reader.uint32(at: record + 8),
                  let length = reader.uint32(at: record + 12) else { throw .damaged("its table directory is cut short") }
            guard offset <= reader.count, length <= reader.count - offset else {
                throw .damaged("its \(FontBytes.printable(tag)) table lies past the end of the file")
            }
            // fvar: axisCount at 8, instanceCount at 12.
            if tag == "fvar" {
                guard length >= 16, let named = reader.uint16(at: offset + 12) else { throw .damaged("its fvar table is cut short") }
                guard named <= Limits.instances else {
                    throw Refusal("has \(named) named instances in a face; at most \(Limits.instances) are accepted")
                }
                instances = named
            }
        }
        return instances
    }

    /// A WOFF 1.0 font: what it unpacks to, and each table inside the file.
    private static func checkWOFF(_ reader: FontBytes) throws(Refusal) {
        guard let length = reader.uint32(at: 8), let count = reader.uint16(at: 12), let total = reader.uint32(at: 16) else {
            throw .damaged("its WOFF header is cut short")
        }
        guard length == reader.count else { throw .damaged("its WOFF header says \(length) bytes; the file has \(reader.count)") }
        guard count >= 1 else { throw .damaged("it has no tables") }
        guard count <= Limits.tables else { throw Refusal("has \(count) tables; at most \(Limits.tables) are accepted") }
        guard total <= Limits.bytes else { throw unpacksTo(total) }
        var unpacked = 12 + 16 * count
        for table in 0..<count {
            let entry = 44 + 20 * table
            guard let tag = reader.tag(at: entry), let offset = reader.uint32(at: entry + 4), let packed = reader.uint32(at: entry + 8),
                  let original = reader.uint32(at: entry + 12) else { throw .damaged("its table directory is cut short") }
            guard offset <= reader.count, packed <= reader.count - offset else {
                throw .damaged("its \(FontBytes.printable(tag)) table lies past the end of the file")
            }
            guard packed <= original else { throw .damaged("its \(FontBytes.printable(tag)) table is longer packed than unpacked") }
            unpacked += (original + 3) / 4 * 4
            guard unpacked <= Limits.bytes else { throw unpacksTo(unpacked, more: true) }
        }
        guard unpacked == total else { throw .damaged("its tables add up to \(unpacked) bytes, its header says \(total)") }
    }

    /// A WOFF 2.0 font or collection: what it unpacks to, each table's lengths, its faces.
    private static func checkWOFF2(_ reader: FontBytes) throws(Refusal) -> Int {
        guard let flavor = reader.tag(at: 4), let length = reader.uint32(at: 8), let count = reader.uint16(at: 12),
              let total = reader.uint32(at: 16), let compressed = reader.uint32(at: 20) else {
            throw .damaged("its WOFF2 header is cut short")
        }
        guard length == reader.count else { throw .damaged("its WOFF2 header says \(length) bytes; the file has \(reader.count)") }
        guard count >= 1 else { throw .damaged("it has no tables") }
        guard count <= Limits.tables else { throw Refusal("has \(count) tables; at most \(Limits.tables) are accepted") }
        guard total <= Limits.bytes else { throw unpacksTo(total) }
        guard compressed <= reader.count else { throw .damaged("its compressed data is longer than the file") }
        var position = 48
        var unpacked = 0
        for _ in 0..<count {
            guard let flags = reader.uint8(at: position) else { throw .damaged("its table directory is cut short") }
            position += 1
            // Bits 0–5: a known table's number, or 63 for a tag of four bytes that follows.
            let known = flags & 0x3F
            if known == 0x3F { position += 4 }
            guard let original = reader.base128(at: &position) else { throw .damaged("its table directory is damaged") }
            unpacked += (original + 3) / 4 * 4
            // glyf and loca (tags 10 and 11) are transformed unless their transform version is
            // 3; every other table is transformed only with a version other than 0.
            let version = flags >> 6
            let transformed = (known == 10 || known == 11) ? version != 3 : version != 0
            if transformed {
                guard let stored = reader.base128(at: &position) else { throw .damaged("its table directory is damaged") }
                unpacked += stored
            }
            guard unpacked <= Limits.bytes else { throw unpacksTo(unpacked, more: true) }
        }
        guard flavor == "ttcf" else { return 1 }
        // The collection directory: version, then numFonts as a 255UInt16.
        position += 4
        guard let faces = reader.uint255(at: &position) else { throw .damaged("its collection directory is cut short") }
        guard faces >= 1 else { throw .damaged("its collection lists no faces") }
        guard faces <= Limits.faces else { throw Refusal("is a collection of \(faces) faces; at most \(Limits.faces) are accepted") }
        return faces
    }

    private static func unpacksTo(_ bytes: Int, more: Bool = false) -> Refusal {
        Refusal("unpacks to \(more ? "more than " : "")\(FontBytes.mebibytes(bytes)); fonts up to \(FontBytes.mebibytes(Limits.bytes)) unpacked are accepted")
    }
}
