// The one rule for a value placed in a path (a feed's cell, a matrix value, a variable, a job's
// id filled into `out/{sku}.mp4`, `stills/{image}.png` or a layout's `logos/{brand}.png`): the
// text around it was written by whoever wrote the manifest or layout, the value came from data,
// so the value may name files below the folder that text names and nothing else. Checked as
// each value is placed, lengths first, so a giant value costs nothing but its refusal.

import Glibc

/// What a value placed in a path may be.
package enum PathValue {
    /// Why `value` may not be placed in a path, or nil when it may: it is non-empty, holds no
    /// control characters (a file name no one can type or see), does not start with `/`, has
    /// no `..` part (either would leave the folder the template names), and fits a path: at
    /// most `PATH_MAX` bytes, each part at most `NAME_MAX`.
    package static func problem(_ value: String) -> String? {
        if value.isEmpty { return "a value placed in a path must not be empty" }
        let bytes = value.utf8.count
        if bytes > Int(PATH_MAX) {
            return "a value placed in a path must be at most \(PATH_MAX) bytes (a path's limit); this one is \(bytes)"
        }
        if let part = value.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).first(where: { $0.count > Int(NAME_MAX) }) {
            return "a value placed in a path must name files of at most \(NAME_MAX) bytes (a file name's limit); a part of this one is \(part.count)"
        }
        if value.unicodeScalars.contains(where: InputText.needsEscape) {
            return "a value placed in a path must not hold control characters (line breaks, tabs, escapes)"
        }
        if value.hasPrefix("/") { return "a value placed in a path must not start with /; it would leave the folder its path names" }
        if value.split(separator: "/", omittingEmptySubsequences: false).contains("..") {
            return "a value placed in a path must not hold a '..' part; it would leave the folder its path names"
        }
        return nil
    }
}
