// The morning page as HTML: one file, its style inline, no script and nothing fetched from the
// network. Every word from the report is escaped; pictures load lazily, so a page of a thousand
// jobs opens at once and fetches only the posters in view.

import Foundation
import SliceKit

extension ReportPage {
    /// What an earlier page holds near its top, so that a later run may replace it.
    package static let generatorMark = "<meta name=\"generator\" content=\"slicevid report html\">"

    /// The page, as UTF-8.
    public var html: Data { Data(text.utf8) }

    /// The most bytes of a page: about what the largest report read (`ReportFile.maximumSize`)
    /// makes, so a hostile report cannot make a page many times its own size.
    package static let largestPage = 256 << 20

    /// The page's text.
    public var text: String { text(largest: Self.largestPage) }

    /// The page's text, its tiles stopping once it holds `largest` bytes, with a line saying
    /// how many jobs it leaves out.
    package func text(largest: Int) -> String {
        var page = ""
        page.reserveCapacity(4096 + tiles.count * 900)
        let counts = self.counts
        let manifest = report["manifest"] as? String ?? ""
        let name = manifest == "-" ? "stdin" : URL(fileURLWithPath: manifest).lastPathComponent
        let tally = Group.allCases.compactMap { group in counts[group].map { "\($0) \(group.word)" } }.joined(separator: ", ")
        page += """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        \(Self.generatorMark)
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HTMLText.escaped(name)): \(tally.isEmpty ? "no jobs" : tally)</title>
        <style>\(Self.style)</style>
        </head>
        <body>
        <header>
        <h1>\(HTMLText.escaped(name))</h1>
        <p class="meta">\(summaryLine)</p>
        <nav>
        """
        for group in Group.allCases {
            guard let count = counts[group] else { continue }
            page += "<a href=\"#\(group.rawValue)\" class=\"g-\(group.rawValue)\">\(count) \(group.word)</a>"
        }
        page += "<a href=\"#all\">all \(tiles.count)</a></nav>\n"
        page += notes
        page += "</header>\n<main>\n"
        // Targets for the filters above: `#failed` hides every group but the failed one (CSS :target).
        for group in Group.allCases { page += "<i id=\"\(group.rawValue)\" class=\"filter\"></i>" }
        page += "<i id=\"all\"></i>\n"
        if tiles.isEmpty { page += "<p>The report has no jobs.</p>\n" }
        var current: Group?
        var shown = 0
        for tile in tiles {
            guard page.utf8.count < largest else { break }
            shown += 1
            if tile.group != current {
                if current != nil { page += "</div></section>\n" }
                current = tile.group
                page += "<section class=\"g-\(tile.group.rawValue)\"><h2>\(tile.group.title) <span>\(counts[tile.group] ?? 0)</span></h2><div class=\"tiles\">\n"
            }
            page += Self.html(tile)
        }
        if current != nil { page += "</div></section>\n" }
        if shown < tiles.count {
            page += "<p class=\"error\">\(tiles.count - shown) more jobs are not shown: the page stops at \(UnitText.bytes(largest)) (the report lists every job)</p>\n"
        }
        page += "</main>\n</body>\n</html>\n"
        return page
    }

    /// The line under the title: the manifest, who wrote the report, when, and how it ended.
    private var summaryLine: String {
        var parts: [String] = []
        if let manifest = report["manifest"] as? String { parts.append(HTMLText.escaped(manifest)) }
        if let version = report["slicevid"] as? String { parts.append("slicevid " + HTMLText.escaped(version)) }
        if let started = report["started"] as? String { parts.append("started " + HTMLText.escaped(started)) }
        if let seconds = Self.number(report["seconds"]) { parts.append("took " + UnitText.seconds(seconds)) }
        if let shards = report["shards"] as? [Any] {
            parts.append("\(shards.count) shard report\(shards.count == 1 ? "" : "s") merged")
        } else if let shard = report["shard"] as? String, shard != "0/1" {
            parts.append("shard " + HTMLText.escaped(shard))
        }
        if let status = report["status"] as? String { parts.append("status <b>\(HTMLText.escaped(status))</b>") }
        if let signal = report["signal"] as? String { parts.append("stopped by " + HTMLText.escaped(signal)) }
        if let source { parts.append("from " + HTMLText.escaped(source)) }
        return parts.joined(separator: " · ")
    }

    /// What a merged report says keeps the campaign from being whole, and the orphans found.
    private var notes: String {
        var lines = (report["problems"] as? [Any] ?? []).compactMap { $0 as? String }
        let shown = 50
        if lines.count > shown { lines = Array(lines.prefix(shown)) + ["and \(lines.count - shown) more (see the report's \"problems\")"] }
        let orphans = (report["orphans"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }
        let pruned = orphans.filter { $0["pruned"] as? Bool == true }.count
        if orphans.count > pruned {
            lines.append("\(orphans.count - pruned) output\(orphans.count - pruned == 1 ? "" : "s") of jobs the manifest no longer has (orphans; a run that prunes deletes them)")
        }
        if pruned > 0 { lines.append("\(pruned) orphaned output\(pruned == 1 ? " was" : "s were") pruned") }
        guard !lines.isEmpty else { return "" }
        return "<ul class=\"notes\">" + lines.map { "<li>\(HTMLText.escaped($0))</li>" }.joined() + "</ul>\n"
    }

    /// One job's tile.
    private static func html(_ tile: Tile) -> String {
        var html = "<article class=\"tile s-\(statusClass(tile.status))\" id=\"job-\(tile.index)\">"
        // A job that failed or did not finish has nothing new to show: its tile is its error.
        switch tile.picture {
        case .none where tile.group == .failed || tile.group == .stopped:
            break
        case .image(_, let link):
            let source = HTMLText.escaped(HTMLText.urlPath(link))
            html += "<a class=\"pic\" href=\"\(source)\"><img src=\"\(source)\" alt=\"\(HTMLText.escaped(tile.id))\" loading=\"lazy\" decoding=\"async\"></a>"
        case .none(let why):
            html += "<div class=\"pic none\">\(HTMLText.escaped(why))</div>"
        }
        html += "<h3>\(HTMLText.escaped(tile.id))</h3><p class=\"state\"><b>\(HTMLText.escaped(tile.status))</b>"
        if let row = tile.row { html += " · row \(HTMLText.escaped(row))" }
        html += "</p>"
        if tile.group == .failed || tile.group == .stopped || tile.group == .other, let error = tile.error {
            html += "<p class=\"error\">\(HTMLText.escaped(error))</p>"
        } else if let why = tile.why {
            // Three lines at most on the tile; a longer reason in full on hover.
            let title = why.count > 100 ? " title=\"\(HTMLText.escaped(why))\"" : ""
            html += "<p class=\"why\"\(title)>\(HTMLText.escaped(why))</p>"
        }
        if !tile.outputs.isEmpty {
            html += "<ul class=\"outs\">"
            for output in tile.outputs {
                let name = URL(fileURLWithPath: output.path).lastPathComponent
                var facts: [String] = []
                if let seconds = output.seconds { facts.append(UnitText.seconds(seconds)) }
                if let bytes = output.bytes { facts.append(UnitText.bytes(bytes)) }
                // Written (or checked) by this run, it links to the file; otherwise it is only named.
                let label = output.bytes == nil
                    ? "<s>\(HTMLText.escaped(name))</s>"
                    : "<a href=\"\(HTMLText.escaped(HTMLText.urlPath(output.link)))\">\(HTMLText.escaped(name))</a>"
                html += "<li>\(label)<span>\(facts.isEmpty ? "not written" : facts.joined(separator: " · "))</span></li>"
            }
            html += "</ul>"
        }
        return html + "</article>\n"
    }

    /// A class name for `status`: slicevid's own statuses, or `other`.
    private static func statusClass(_ status: String) -> String {
        JobStatus(rawValue: status).map(\.rawValue) ?? "other"
    }

    /// The page's style: light and dark, a grid of compact tiles, and the :target filters.
    static let style = """
    :root{color-scheme:light dark;--bg:#f4f4f2;--card:#fff;--ink:#1d1d1d;--mute:#666;--line:#ddd;--fail:#c62828;--ok:#2e7d32;--stop:#a15c00}
    @media (prefers-color-scheme:dark){:root{--bg:#141414;--card:#202020;--ink:#eee;--mute:#a8a8a8;--line:#363636;--fail:#ff6b66;--ok:#6cc070;--stop:#f0a040}}
    *{box-sizing:border-box}
    body{margin:0;font:14px/1.4 system-ui,sans-serif;background:var(--bg);color:var(--ink)}
    header{padding:14px 20px;background:var(--card);border-bottom:1px solid var(--line)}
    h1{margin:0 0 4px;font-size:20px;overflow-wrap:anywhere}
    .meta{margin:0;color:var(--mute);overflow-wrap:anywhere}
    nav{display:flex;flex-wrap:wrap;gap:6px;margin-top:10px}
    nav a{padding:2px 10px;border:1px solid var(--line);border-radius:12px;color:inherit;text-decoration:none}
    nav a.g-failed{border-color:var(--fail);color:var(--fail);font-weight:600}
    nav a.g-stopped{border-color:var(--stop);color:var(--stop)}
    .notes{margin:10px 0 0;padding-left:18px;color:var(--fail);overflow-wrap:anywhere}
    main{padding:10px 20px 30px}
    h2{margin:12px 0 8px;font-size:15px}
    h2 span{color:var(--mute);font-weight:400}
    .tiles{display:grid;grid-template-columns:repeat(auto-fill,minmax(210px,1fr));gap:10px}
    .tile{background:var(--card);border:1px solid var(--line);border-radius:6px;overflow:hidden;font-size:12px;content-visibility:auto;contain-intrinsic-size:auto 250px}
    .s-failed{border:2px solid var(--fail)}
    .s-interrupted,.s-pending{border:2px solid var(--stop)}
    .pic{display:block;aspect-ratio:16/9;background:#111}
    .pic img{display:block;width:100%;height:100%;object-fit:contain}
    .pic.none{display:flex;align-items:center;justify-content:center;padding:10px;color:#bbb;text-align:center;overflow-wrap:anywhere}
    .tile h3{margin:6px 8px 2px;font-size:13px;overflow-wrap:anywhere}
    .tile p{margin:2px 8px;overflow-wrap:anywhere}
    .state{color:var(--mute)}
    .s-failed .state b,.error{color:var(--fail)}
    .s-rendered .state b{color:var(--ok)}
    .s-interrupted .state b,.s-pending .state b{color:var(--stop)}
    .why{color:var(--mute);display:-webkit-box;-webkit-line-clamp:3;-webkit-box-orient:vertical;overflow:hidden}
    .outs{margin:4px 8px 8px;padding:0;list-style:none}
    .outs li{display:flex;justify-content:space-between;gap:8px}
    .outs a,.outs s{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
    .outs span{color:var(--mute);white-space:nowrap}
    .filter:target~section{display:none}
    #failed:target~.g-failed,#stopped:target~.g-stopped,#rendered:target~.g-rendered,#skipped:target~.g-skipped,#other:target~.g-other{display:block}
    """
}
