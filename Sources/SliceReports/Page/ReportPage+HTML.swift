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
        // The manifest's description is the campaign's title; its file name otherwise.
        let description = (report["description"] as? String).map { Self.shortened($0.trimmingCharacters(in: .whitespacesAndNewlines), to: 300) }
        let name = description.flatMap { $0.isEmpty ? nil : $0 } ?? (manifest == "-" ? "stdin" : URL(fileURLWithPath: manifest).lastPathComponent)
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
        page += warningList
        page += nightsIndex
        page += "</header>\n<main>\n"
        // Targets for the filters above: `#failed` hides every group but the failed one (CSS :target).
        for group in Group.allCases { page += "<i id=\"\(group.rawValue)\" class=\"filter\"></i>" }
        page += "<i id=\"all\"></i>\n"
        if tiles.isEmpty { page += "<p>The report has no jobs.</p>\n" }
        var current: Group?
        var currentRow: String?
        var shown = 0
        for tile in tiles {
            guard page.utf8.count < largest else { break }
            shown += 1
            if tile.group != current {
                if current != nil { page += "</div></section>\n" }
                current = tile.group
                currentRow = nil
                page += "<section class=\"g-\(tile.group.rawValue)\"><h2>\(tile.group.title) <span>\(counts[tile.group] ?? 0)</span></h2><div class=\"tiles\">\n"
            }
            // A feed row's (a product's) jobs under its key, across the grid.
            if let key = tile.rowKey, key != currentRow {
                currentRow = key
                page += "<h3 class=\"row\">\(HTMLText.escaped(key))</h3>\n"
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
        if let started = report["started"] as? String {
            // In the local time of whoever makes the page, with its zone; as written when it is no time.
            parts.append("started " + HTMLText.escaped(Self.date(started).map { Self.localTime($0, seconds: true) } ?? started))
        }
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
        // Each orphan left on disk by name, with the job that wrote it and why it stays.
        let left = orphans.filter { $0["pruned"] as? Bool != true }
        var named = left.prefix(shown).compactMap { orphan -> String? in
            guard let path = orphan["path"] as? String else { return nil }
            let job = (orphan["job"] as? String).map { " (job \(Self.shortened($0, to: 300)))" } ?? ""
            let why = (orphan["kept"] as? String).map { "kept: " + Self.shortened(Self.relativePaths(in: $0, folder: pageFolder), to: 2_000) } ?? "left: not pruned by this run"
            return "\(Self.shortened(Self.relativePaths(in: path, folder: pageFolder), to: 4_096))\(job): \(why)"
        }
        if left.count > shown { named.append("and \(left.count - shown) more (see the report's \"orphans\")") }
        guard !lines.isEmpty || !named.isEmpty else { return "" }
        let orphanList = named.isEmpty ? "" : "<li>Orphans left<ul>" + named.map { "<li>\(HTMLText.escaped($0))</li>" }.joined() + "</ul></li>"
        return "<ul class=\"notes\">" + lines.map { "<li>\(HTMLText.escaped($0))</li>" }.joined() + orphanList + "</ul>\n"
    }

    /// The index of the runs kept in the page's history, newest first: when each started, how
    /// it ended and its counts, each linked to its own page.
    private var nightsIndex: String {
        guard !nights.isEmpty else { return "" }
        var html = "<details class=\"nights\" open><summary>\(nights.count) run\(nights.count == 1 ? "" : "s") kept</summary><ol>"
        for night in nights {
            let when = night.started.map { Self.localTime($0) } ?? URL(fileURLWithPath: night.link).deletingPathExtension().lastPathComponent
            let counts = ["failed", "interrupted", "pending", "rendered", "skipped"].compactMap { key -> String? in
                guard let count = night.counts[key], count > 0 else { return nil }
                return "\(count) \(key == "skipped" ? "up to date" : key)"
            }.joined(separator: ", ")
            let failed = (night.counts["failed"] ?? 0) > 0
            html += "<li\(failed ? " class=\"fail\"" : "")><a href=\"\(HTMLText.escaped(HTMLText.urlPath(night.link)))\">\(HTMLText.escaped(when))</a>"
            html += " · \(HTMLText.escaped(night.status ?? "report unreadable"))\(counts.isEmpty ? "" : " · " + HTMLText.escaped(counts))</li>"
        }
        return html + "</ol></details>\n"
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
        if tile.isRetryable { html += " · temporary: worth a retry" }
        if let row = tile.row { html += " · row \(HTMLText.escaped(row))" }
        html += "</p>"
        if tile.group == .failed, tile.isPreviousLive {
            let when = tile.previous.map { ", rendered " + localTime($0) } ?? ""
            html += "<p class=\"live\">previous version live\(HTMLText.escaped(when))</p>"
        }
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
                // The whole file name, wrapped rather than cut (`NL-101-480x270-nl.mp4`).
                let name = URL(fileURLWithPath: output.path).lastPathComponent
                var facts: [String] = []
                if let seconds = output.seconds ?? output.live?.seconds { facts.append(UnitText.seconds(seconds)) }
                if let bytes = output.bytes ?? output.live?.bytes { facts.append(UnitText.bytes(bytes)) }
                if let loudness = output.loudness { facts.append(String(format: "%.1f LUFS", loudness)) }
                if output.bytes == nil, output.live != nil { facts.append("previous version") }
                // Written (or checked) by this run, or an earlier render still live, it links to
                // the file; otherwise it is only named.
                let label = output.bytes == nil && output.live == nil
                    ? "<s>\(HTMLText.escaped(name))</s>"
                    : "<a href=\"\(HTMLText.escaped(HTMLText.urlPath(output.link)))\">\(HTMLText.escaped(name))</a>"
                html += "<li>\(label)<span>\(facts.isEmpty ? "not written" : facts.joined(separator: " · "))</span></li>"
            }
            html += "</ul>"
        }
        html += player(tile)
        return html + "</article>\n"
    }

    /// The clip, played in the tile on request: its WebM and MP4 outputs on disk (written or
    /// checked by this run, or an earlier render still live) as sources of one video element
    /// that loads nothing until played.
    private static func player(_ tile: Tile) -> String {
        let playable = tile.outputs.filter { output in
            (output.bytes != nil || output.live != nil) && [".webm", ".mp4", ".m4v", ".mov"].contains { output.path.lowercased().hasSuffix($0) }
        }
        guard !playable.isEmpty else { return "" }
        // WebM first: a browser without H.264 plays it, the others take the first they can.
        let sources = playable.sorted { ($0.path.lowercased().hasSuffix(".webm") ? 0 : 1) < ($1.path.lowercased().hasSuffix(".webm") ? 0 : 1) }
        var html = "<details class=\"play\"><summary>play</summary><video controls preload=\"none\" playsinline>"
        for output in sources {
            let type = output.path.lowercased().hasSuffix(".webm") ? "video/webm" : output.path.lowercased().hasSuffix(".mov") ? "video/quicktime" : "video/mp4"
            html += "<source src=\"\(HTMLText.escaped(HTMLText.urlPath(output.link)))\" type=\"\(type)\">"
        }
        return html + "</video></details>"
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
    .warnings{margin:10px 0 0;color:var(--stop);overflow-wrap:anywhere}.warnings ul{margin:4px 0 0;padding-left:18px}.warnings span{color:var(--mute)}
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
    .outs a,.outs s{overflow-wrap:anywhere;min-width:0}
    .live{color:var(--stop);font-weight:600}
    h3.row{grid-column:1/-1;margin:8px 0 0;font-size:13px;color:var(--mute)}
    .play{margin:0 8px 8px}
    .play summary{cursor:pointer;color:var(--mute)}
    .play video{display:block;width:100%;margin-top:4px;background:#000}
    .nights{margin-top:10px}
    .nights summary{cursor:pointer;color:var(--mute)}
    .nights ol{margin:4px 0 0;padding-left:22px;max-height:12em;overflow:auto}
    .nights li.fail a{color:var(--fail)}
    .outs span{color:var(--mute);white-space:nowrap}
    .filter:target~section{display:none}
    #failed:target~.g-failed,#stopped:target~.g-stopped,#rendered:target~.g-rendered,#skipped:target~.g-skipped,#other:target~.g-other{display:block}
    """
}
