// Fitting a line to a terminal's width: a progress line that is redrawn in place must never
// wrap, or every redraw leaves a stale line behind (56 of them for 6 long job ids at 80 columns).

extension InputText {
    /// The columns `text` may take on a terminal, counted so it never takes more: an ASCII
    /// character is one column, anything else two (wide CJK characters and emoji take two;
    /// a combining mark takes none, so this over-counts, which is the safe side).
    package static func columns(of text: some StringProtocol) -> Int {
        text.unicodeScalars.reduce(0) { $0 + ($1.isASCII ? 1 : 2) }
    }

    /// `text` cut so it takes at most `columns` columns, ending in `…` when it was cut. Control
    /// characters are escaped first (a redraw must not move the cursor).
    /// - Precondition: `columns` ≥ 1.
    package static func fitted(_ text: some StringProtocol, columns: Int) -> String {
        let shown = escaped(text)
        guard self.columns(of: shown) > columns else { return shown }
        var result = String.UnicodeScalarView()
        var used = 0
        // Room for the ellipsis, which counts as two columns.
        for scalar in shown.unicodeScalars {
            let width = scalar.isASCII ? 1 : 2
            guard used + width <= columns - 2 else { break }
            result.append(scalar)
            used += width
        }
        return String(result) + (columns >= 2 ? "…" : "")
    }
}
