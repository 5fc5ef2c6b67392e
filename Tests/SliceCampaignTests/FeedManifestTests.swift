// Manifests whose jobs come from a feed (`rows`): one job per row times the matrix, every column
// a placeholder, and every malformed feed refused with one line naming the file, line and column
// before a job is made — within the job limit, counted before anything is expanded.

import Foundation
import Glibc
import SliceKit
import ScratchFixtures
import Testing
@testable import SliceCampaign
@testable import SlicePipeline

@Suite struct FeedManifestTests {
    /// Six products, as a sheet exports them (BOM, CRLF, quoted prices with a decimal comma).
    static let products = "\u{FEFF}sku,name,price\r\n" + (1...6).map { "NL-10\($0),\"Product \($0)\",\"1\($0),50 €\"\r\n" }.joined()

    /// A manifest with a feed and a 3 × 2 matrix over `feed`.
    static func manifest(_ scratch: Scratch, feed: String = "products.csv", rows: [String: Any]? = nil,
                         template: [String: Any] = [:]) throws -> String {
        try scratch.still("a.png", index: 0)
        try scratch.still("b.png", index: 1)
        var job: [String: Any] = [
            "id": "{sku}-{aspect}-{locale}",
            "rows": rows ?? ["file": feed, "key": "sku"],
            "matrix": ["aspect": ["16x9", "9x16", "1x1"], "locale": ["nl", "de"]],
            "images": ["a.png", "b.png"],
            "outputs": ["out/{aspect}/{id}.mp4"],
        ]
        for (key, value) in template { job[key] = value }
        return try scratch.json("campaign.json", ["defaults": tinyDefaults, "jobs": [job]])
    }

    static func refusal(_ path: String) -> SlicevidError? {
        do { _ = try Manifest.load(path: path, presets: testPresets); return nil } catch { return error }
    }

    @Test func sixRowsTimesThreeByTwoMakeThirtySixJobsRowByRow() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.text("products.csv", Self.products)
        let manifest = try Manifest.load(path: try Self.manifest(scratch), presets: testPresets)
        #expect(manifest.jobs.count == 36)
        #expect(manifest.jobs.prefix(7).map(\.id) == ["NL-101-16x9-nl", "NL-101-16x9-de", "NL-101-9x16-nl", "NL-101-9x16-de",
                                                     "NL-101-1x1-nl", "NL-101-1x1-de", "NL-102-16x9-nl"])
        let job = manifest.jobs[6]
        // The job uses the key alone (in its id): name and price reach nothing it renders, so
        // they are not part of its fingerprint.
        #expect(job.row == JobRow(feed: "products.csv", line: 3, key: "NL-102", values: [.init(column: "sku", text: "NL-102")]))
        #expect(job.outputPaths == [scratch.path + "/out/16x9/NL-102-16x9-nl.mp4"])
        #expect(job.variables["price"] == "12,50 €" && job.variables["aspect"] == "16x9")
        // Where placeholders set part of an output's path, the fixed folder above is searched for orphans.
        #expect(manifest.outputRoots == [scratch.path + "/out"])
    }

    @Test func jsonLinesAndSeparatorsGiveTheSameJobs() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.text("products.jsonl", "{\"sku\": \"A\", \"price\": 12.5}\n{\"sku\": \"B\", \"price\": 9}\n")
        try scratch.text("products.txt", "sku;price\nA;\"12,5\"\nB;9\n")
        let jsonl = try Manifest.load(path: try Self.manifest(scratch, feed: "products.jsonl", template: ["hold": "{price}"]), presets: testPresets)
        #expect(jsonl.jobs.count == 12)
        // A whole-string placeholder takes a JSON Lines number as a number.
        #expect(jsonl.jobs[0].spec.hold == 12.5 && jsonl.jobs[0].variables["price"] == "12.5")
        let semicolons = try Manifest.load(path: try Self.manifest(scratch, rows: ["file": "products.txt", "key": "sku", "separator": ";"]),
                                           presets: testPresets)
        #expect(semicolons.jobs.map(\.id) == jsonl.jobs.map(\.id))
        #expect(semicolons.jobs[0].variables["price"] == "12,5")
    }

    @Test("each malformed feed is one line naming the file, line and column", arguments: [
        ("sku,name\nA,x\nB\n", "rows: products.csv:3:2: the row has 1 field; the header has 2 (sku, name)"),
        ("sku,name\nA,x,y\n", "rows: products.csv:2:5: the row has 3 fields; the header has 2 (sku, name)"),
        ("sku,name\nA,x\"y\n", "rows: products.csv:2:4: a quote inside a field"),
        ("sku,name\nA,\"x\ny\n", "rows: products.csv:2:3: the quoted field that starts here never closes"),
        ("sku,name\nA,x\nA,y\n", "rows: products.csv:3:1: the key (sku) 'A' is also on line 2; keys must be unique"),
        ("sku,name\n,x\n", "rows: products.csv:2:1: the key (sku) is empty"),
        ("sku,name\n", "rows: products.csv: has no rows"),
        ("", "rows: products.csv:1:1: is empty; a feed starts with a header row"),
        ("sku,na me\nA,x\n", "rows: products.csv:1:5: column 'na me' is not a placeholder name"),
        ("sku,id\nA,x\n", "rows: products.csv:1:5: a column may not be named 'id'"),
        ("sku,sku\nA,x\n", "rows: products.csv:1:5: column 'sku' is named twice"),
        ("code,name\nA,x\n", "rows: products.csv:1: has no column 'sku', the manifest's \"key\"; its columns: code, name"),
        ("sku,name\nA,x\n\nB,y\n", "rows: products.csv:3:1: the line is empty"),
    ])
    func malformedFeeds(_ feed: String, expected: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.text("products.csv", feed)
        let error = try #require(Self.refusal(try Self.manifest(scratch)))
        #expect(error.category == .usage)
        #expect(error.message.hasPrefix("\(scratch.path)/campaign.json: jobs[0]: \(expected)"), "\(error.message)")
        #expect(!error.message.contains("\n"))
    }

    @Test("a JSON Lines row whose keys differ from the first row's is refused naming its line", arguments: [
        ("{\"sku\": \"A\", \"name\": \"x\"}\n{\"sku\": \"B\"}\n", "rows: products.jsonl:2: has no 'name'; every row has the first row's keys (name, sku)"),
        ("{\"sku\": \"A\"}\n{\"sku\": \"B\", \"name\": \"x\"}\n", "rows: products.jsonl:2: has 'name', which the first row has not"),
        ("{\"sku\": \"A\"}\n{\"sku\": \"A\"}\n", "rows: products.jsonl:2: the key (sku) 'A' is also on line 1"),
        ("{\"sku\": \"A\", \"name\": null}\n", "rows: products.jsonl:1: 'name': expected a string or a number"),
    ])
    func jsonLinesRows(_ feed: String, expected: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.text("products.jsonl", feed)
        let error = try #require(Self.refusal(try Self.manifest(scratch, feed: "products.jsonl")))
        #expect(error.message.contains(expected), "\(error.message)")
    }

    @Test func latin1BytesAreRefusedWithTheirLineAndColumn() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try Data(Array("sku,name\r\nA,Caf".utf8) + [0xE9] + Array("\r\n".utf8)).write(to: URL(fileURLWithPath: scratch.path + "/products.csv"))
        let error = try #require(Self.refusal(try Self.manifest(scratch)))
        #expect(error.message.contains("rows: products.csv:2:6: byte 0xE9 is not UTF-8"), "\(error.message)")
    }

    @Test("a value that would take a path out of its folder, or hold control characters, is refused", arguments: [
        ("../../etc", "{name} is '../../etc' (from products.csv:2:3, column name): a value placed in a path must not hold a '..' part"),
        ("/etc/x", "a value placed in a path must not start with /"),
        ("a\u{1B}[2Jb", "a value placed in a path must not hold control characters"),
        ("\"line\nbreak\"", "a value placed in a path must not hold control characters"),
    ])
    func pathValues(_ value: String, expected: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.text("products.csv", "sku,name\nA,\(value)\n")
        let error = try #require(Self.refusal(try Self.manifest(scratch, template: ["outputs": ["out/{name}/{id}.mp4"]])))
        #expect(error.message.contains("outputs[0]: ") && error.message.contains(expected), "\(error.message)")
        #expect(!error.message.contains("\n") && !error.message.contains("\u{1B}"))
    }

    @Test func aKeyThatClimbsOutThroughTheIdIsRefusedToo() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.text("products.csv", "sku,name\n../x,a\n")
        let error = try #require(Self.refusal(try Self.manifest(scratch)))
        #expect(error.message.contains("{id} is '../x-16x9-nl' (the job's id): a value placed in a path must not hold a '..' part"), "\(error.message)")
    }

    @Test("a giant key makes no giant id: the id names the job in every log line, report and sidecar")
    func aGiantKeyIsNoId() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.text("products.csv", "sku,name\n\(String(repeating: "k", count: 300)),x\n")
        let error = try #require(Self.refusal(try Self.manifest(scratch, template: ["outputs": ["out/{aspect}-{locale}.mp4"]])))
        #expect(error.category == .usage && error.message.contains("jobs[0]: id: 'kkkk") && error.message.hasSuffix("is 308 bytes; an id is at most 255"),
                "\(error.message)")
    }

    @Test func aPlaceholderNoColumnFillsIsRefusedListingTheColumns() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.text("products.csv", Self.products)
        let error = try #require(Self.refusal(try Self.manifest(scratch, template: ["outputs": ["out/{prise}/{id}.mp4"]])))
        #expect(error.message.contains("outputs[0]: {prise} is not a placeholder of this job (it has {aspect}, {locale}, {name}, {price}, {sku}, {id})"), "\(error.message)")
    }

    @Test func theIdMustUseTheKeyAndMatrixNamesMustNotBeColumns() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.text("products.csv", Self.products)
        let noKey = try #require(Self.refusal(try Self.manifest(scratch, template: ["id": "{name}-{aspect}-{locale}"])))
        #expect(noKey.message.contains("id: '{name}-{aspect}-{locale}' does not use {sku}, the feed's key"), "\(noKey.message)")
        let clash = try #require(Self.refusal(try Self.manifest(scratch, template: ["id": "{sku}-{aspect}-{price}", "matrix": ["aspect": ["a"], "price": ["1"]]])))
        #expect(clash.message.contains("matrix.price: is also a column of products.csv"), "\(clash.message)")
    }

    @Test func ignoredColumnsAreNeitherPlaceholdersNorFingerprinted() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.text("products.csv", "sku,price,stock\nA,1,40\n")
        let manifest = try Manifest.load(path: try Self.manifest(scratch, rows: ["file": "products.csv", "key": "sku", "ignore": ["stock"]],
                                                                 template: ["outputs": ["out/{price}/{id}.mp4"]]), presets: testPresets)
        #expect(manifest.jobs[0].row?.values.map(\.column) == ["sku", "price"])
        let ignoredButUsed = try #require(Self.refusal(try Self.manifest(scratch, rows: ["file": "products.csv", "key": "sku", "ignore": ["stock"]],
                                                                         template: ["hold": "{stock}"])))
        #expect(ignoredButUsed.message.contains("hold: {stock} is not a placeholder of this job"), "\(ignoredButUsed.message)")
        let unknown = try #require(Self.refusal(try Self.manifest(scratch, rows: ["file": "products.csv", "key": "sku", "ignore": ["stok"]])))
        #expect(unknown.message.contains("rows.ignore: 'stok' is not a column of products.csv"), "\(unknown.message)")
    }

    @Test func aMillionRowFeedIsRefusedAtTheJobLimitWithoutReadingItAll() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // 10^6 rows, ~14 MB: refused once rows × 6 combinations pass the limit, at the 16 667th
        // row (line 16 668).
        var text = "sku,name\n"
        text.reserveCapacity(15_000_000)
        for row in 0..<1_000_000 { text += "S\(row),n\n" }
        try scratch.text("products.csv", text)
        let error = try #require(Self.refusal(try Self.manifest(scratch)))
        #expect(error.message.contains("rows: products.csv:16668: the manifest makes more than 100000 jobs"), "\(error.message)")
    }

    @Test("a feed over the size limit is bad input (64), naming the limit; a missing one is missing (66)")
    func aFeedTooLargeIsBadInputNotMissing() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // Sparse: 257 MiB of nothing costs the test nothing.
        let descriptor = open(scratch.path + "/products.csv", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(descriptor >= 0 && ftruncate(descriptor, off_t(FeedInput.maximumSize + (1 << 20))) == 0)
        close(descriptor)
        let large = try #require(Self.refusal(try Self.manifest(scratch)))
        #expect(large.category == .usage && large.message.hasSuffix("jobs[0]: rows: products.csv: is larger than 256 MiB, the most a feed may be; split the feed into several manifests"),
                "\(large.message)")
        try FileManager.default.removeItem(atPath: scratch.path + "/products.csv")
        let missing = try #require(Self.refusal(try Self.manifest(scratch)))
        #expect(missing.category == .inputMissing && missing.message.hasSuffix("jobs[0]: rows: products.csv: no such file"), "\(missing.message)")
    }

    @Test func jobsAreCountedBeforeAnyIsExpanded() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.still("a.png", index: 0)
        // 11 matrices of 10 000 jobs: refused at the twelfth template's matrix, before a job is built.
        let template: [String: Any] = ["id": "{n}-{m}", "matrix": ["n": Array(0..<100), "m": Array(0..<100)],
                                       "images": ["a.png", "a.png"], "outputs": ["out/{id}.mp4"]]
        var jobs: [[String: Any]] = []
        for index in 0..<11 {
            var job = template
            job["id"] = "t\(index)-{n}-{m}"
            jobs.append(job)
        }
        let path = try scratch.json("campaign.json", ["jobs": jobs])
        let error = try #require(Self.refusal(path))
        #expect(error.message.contains("jobs[10]: matrix: the manifest makes more than 100000 jobs"), "\(error.message)")
    }

    @Test func aFeedOnStandardInputIsRefusedWhenTheManifestCameThere() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.still("a.png", index: 0)
        let job: [String: Any] = ["id": "{sku}", "rows": ["file": "-", "key": "sku"], "images": ["a.png", "a.png"], "outputs": "o/{id}.mp4"]
        let data = try JSONSerialization.data(withJSONObject: ["jobs": [job]])
        var context = ManifestContext(folder: scratch.path, presets: testPresets)
        context.readsStandardInput = true
        do {
            _ = try context.feed(job["rows"]!, reader: ManifestReader(manifest: "stdin", place: "jobs[0]"), most: 10, tooMany: "too many")
            Issue.record("a feed on the manifest's own stdin was accepted (\(data.count) bytes)")
        } catch {
            #expect(error.message.contains("rows.file: - is standard input, which carries the manifest itself"), "\(error.message)")
        }
    }
}
