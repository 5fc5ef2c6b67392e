"""Cases about data feeds (a manifest's `rows`): CSV and JSON Lines files with ragged rows, stray
and unclosed quotes, a BOM with CRLF, Latin-1 bytes, lone carriage returns, blank lines, empty
and duplicate keys, control characters and `../` in values that become paths, and row counts past
the manifest's job limit. The oracle: slicevid exits 64 with one line naming the feed, or (for a
feed that is valid) renders every row's job — and never writes outside the outputs.
"""

import json
import os
import subprocess

from case import Case, copy_still, weighted
from cases_documents import batch_owned, documents_file

FEED_OWNER = "feeds"


def _stills(rng, root, corpus):
    sound = [s for s in corpus if s.shape == "normal" and s.required and s.family in ("png", "jpeg", "webp")]
    picks = rng.sample(sound, 2)
    return [os.path.relpath(copy_still(root, os.path.join("m/stills", f"s{i}{os.path.splitext(s.name)[1]}"), s), "m")
            for i, s in enumerate(picks)]


def _csv_field(value):
    """A field as RFC 4180 writes it: quoted when it must be."""
    if any(c in value for c in ',"\r\n'):
        return '"' + value.replace('"', '""') + '"'
    return value


def _rows(rng):
    """A few valid rows: sku, name (placed in a path), price (free text)."""
    count = rng.randint(1, 4)
    names = ["mug", "beans", "Espresso cups, set of 4", "Pour-over \"Classic\"", "café", "星空", "a b"]
    return [(f"NL-{100 + i}", rng.choice(names) + str(i), rng.choice(["12,50 €", "9", "1\n2", "x\ty"])) for i in range(count)]


# Each mutation: (name, weight, certainly invalid). Applied to the CSV's text or bytes.
MUTATIONS = [("valid", 4, False), ("bom-crlf", 3, False), ("semicolons", 2, False), ("ragged", 3, True),
             ("stray-quote", 2, True), ("unclosed-quote", 2, True), ("after-quote", 2, True), ("latin1", 3, True),
             ("lone-cr", 1, True), ("blank-middle", 1, True), ("duplicate-key", 2, True), ("empty-key", 1, True),
             ("header-only", 1, True), ("dotdot", 3, True), ("control", 2, True), ("absolute", 1, True),
             ("huge", 1, True), ("jsonl", 2, False), ("jsonl-broken", 2, True)]


def _csv(rows, separator=","):
    lines = ["sku,name,price".replace(",", separator)]
    lines += [separator.join(_csv_field(v) for v in row) for row in rows]
    return "\n".join(lines) + "\n"


def feed_case(rng, root, ctx):
    """`batch m/campaign.json` whose one job template takes its rows from a mutated feed."""
    images = _stills(rng, root, ctx.corpus)
    rows = _rows(rng)
    mutation, _, invalid = weighted(rng, [((m, w, i), w) for m, w, i in MUTATIONS])
    feed_name, separator, fmt = "products.csv", ",", None
    if mutation == "valid":
        data = _csv(rows).encode()
    elif mutation == "bom-crlf":
        data = b"\xef\xbb\xbf" + _csv(rows).replace("\n", "\r\n").encode()
    elif mutation == "semicolons":
        separator = ";"
        data = _csv(rows, ";").encode()
    elif mutation == "ragged":
        data = (_csv(rows) + rng.choice(["NL-999,two\n", "NL-999,a,b,four\n", "NL-999\n"])).encode()
    elif mutation == "stray-quote":
        data = (_csv(rows) + 'NL-999,ab"c,1\n').encode()
    elif mutation == "unclosed-quote":
        data = (_csv(rows) + 'NL-999,"never closed,1\n').encode()
    elif mutation == "after-quote":
        data = (_csv(rows) + 'NL-999,"x"y,1\n').encode()
    elif mutation == "latin1":
        data = _csv(rows).encode() + "NL-999,café,1\n".encode("latin-1")
    elif mutation == "lone-cr":
        data = _csv(rows).replace("\n", "\r", 1).encode()
    elif mutation == "blank-middle":
        data = _csv(rows).replace("\n", "\n\n", 2).encode()
    elif mutation == "duplicate-key":
        data = (_csv(rows) + _csv_field(rows[0][0]) + ",dup,1\n").encode()
    elif mutation == "empty-key":
        data = (_csv(rows) + ",nokey,1\n").encode()
    elif mutation == "header-only":
        data = b"sku,name,price\n"
    elif mutation == "dotdot":
        data = (_csv(rows) + "NL-999," + rng.choice(["../../escape", "..", "a/../../b", "../x"]) + ",1\n").encode()
    elif mutation == "control":
        data = (_csv(rows) + "NL-999," + _csv_field(rng.choice(["a\x1b[2Jb", "a\nb", "a\x00b", "a\u202eb", "a\x7fb"])) + ",1\n").encode()
    elif mutation == "absolute":
        data = (_csv(rows) + "NL-999,/etc/passwd,1\n").encode()
    elif mutation == "huge":
        # Past 100 000 jobs: refused at the limit, in a moment, without reading the rest.
        # Written 10 000 rows at a time: a worker that held the whole feed would grow by some
        # 100 MiB, and every slicevid it starts afterwards would count that in its peak RSS
        # (Linux adds the forking process's high-water mark at exec).
        count = rng.choice([100_001, 250_000, 1_000_000])
        data = _huge_rows(count)
    elif mutation == "jsonl":
        feed_name, fmt = "products.jsonl", "jsonl"
        data = "".join(json.dumps({"sku": s, "name": n, "price": p}, ensure_ascii=rng.random() < 0.5) + "\n" for s, n, p in rows).encode()
    else:  # jsonl-broken
        feed_name, fmt = "products.jsonl", "jsonl"
        good = "".join(json.dumps({"sku": s, "name": n, "price": p}) + "\n" for s, n, p in rows)
        bad = rng.choice(['{"sku": "Z", "name": "n", "price": true}\n', '{"sku": "Z", "name": "n"}\n', '{"sku": "Z",}\n',
                          '["Z", "n", 1]\n', '{"sku": "Z", "name": "n", "price": 1, "extra": 2}\n'])
        data = (good + bad).encode()
    documents_file(root, "m/" + feed_name, data)
    spec = {"file": feed_name, "key": "sku"}
    if separator != ",":
        spec["separator"] = separator
    if fmt:
        spec["format"] = fmt
    template = {"id": "{sku}", "rows": spec, "images": images, "outputs": "out/{name}/{id}.png"}
    manifest = {"defaults": {"size": "32x18", "fps": 10, "hold": 0, "duration": 0.2}, "jobs": [template]}
    path = documents_file(root, "m/campaign.json", json.dumps(manifest).encode())
    os.makedirs(os.path.join(root, "m/out"), exist_ok=True)
    check = rng.random() < 0.3 or mutation == "huge"
    flags = ["--check"] if check else []
    outputs = [] if check or invalid else [os.path.normpath(os.path.join("m/out", name, f"{sku}.png")) for sku, name, _ in rows]
    return Case(index=0, category="feed", kind=f"feed/{mutation}", owner=FEED_OWNER, runs=[["batch", path, *flags]], batch=True,
                expect=frozenset({64}) if invalid else frozenset({0}), names=[feed_name] if invalid else [path],
                outputs=outputs, owned=[] if check else batch_owned("m/campaign.json", outputs, ""),
                note=f"feed mutation {mutation}; {len(rows)} rows; {'check' if check else 'render'}")


def _huge_rows(count):
    """A feed of `count` rows, as chunks of 10 000 rows for documents_file to write one by one."""
    yield b"sku,name,price\n"
    for start in range(0, count, 10_000):
        yield b"".join(b"S%d,n,1\n" % i for i in range(start, min(start + 10_000, count)))




def _feed_campaign(root, images, skus, extra_columns="", outputs="out/{sku}.png"):
    """m/campaign.json over m/products.csv with one job per row; returns the manifest's path."""
    template = {"id": "{sku}", "rows": {"file": "products.csv", "key": "sku"}, "images": images, "outputs": outputs}
    manifest = {"defaults": {"size": "32x18", "fps": 10, "hold": 0, "duration": 0.2}, "jobs": [template]}
    os.makedirs(os.path.join(root, "m/out"), exist_ok=True)
    return documents_file(root, "m/campaign.json", json.dumps(manifest).encode())


def prerender(ctx, root, argv):
    """Runs slicevid once while the case is laid out (a campaign's earlier night), so the case
    starts from real outputs and sidecars; a failure here is the harness's."""
    env = {k: v for k, v in os.environ.items() if k not in ("SLICEVID_PRESETS", "JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID")}
    env["TMPDIR"] = os.path.join(root, "tmp")
    done = subprocess.run([ctx.binary, *argv], cwd=root, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, timeout=60)
    if done.returncode != 0:
        raise RuntimeError(f"setup run {argv} exited {done.returncode}: {done.stderr.decode(errors='replace')[-300:]}")


def feed_rewritten(rng, root, ctx):
    """Last night rendered four rows; tonight's `--prune` reads the feed while an export
    rewrites it in place, between the whole feed and one cut short to one row (and, as `cp`
    writes, everything between). No output of the whole feed may be deleted: a read that saw
    the feed change deletes nothing, and a steady read of the short one meets the prune brake."""
    images = _stills(rng, root, ctx.corpus)
    skus = ["NL-101", "NL-102", "NL-103", "NL-104"]
    full = "sku,name\n" + "".join(f"{s},n{s}\n" for s in skus)
    short = "sku,name\n" + f"{skus[0]},n{skus[0]}\n"
    documents_file(root, "m/products.csv", full.encode())
    path = _feed_campaign(root, images, skus)
    prerender(ctx, root, ["batch", path, "-q"])
    documents_file(root, "m/feed-full.csv", full.encode())
    documents_file(root, "m/feed-short.csv", short.encode())
    rendered = [f"m/out/{s}.png" for s in skus]
    flags = rng.choice([["--prune"], ["--prune"], ["--prune", "--plan"], ["--prune", "--check"], ["--prune", "--prune-max", "50%"]])
    return Case(index=0, category="feed", kind="feed/rewritten-while-read", owner=FEED_OWNER, runs=[["batch", path, *flags]],
                batch=True, sequential=True, during=("m/products.csv", ["m/feed-full.csv", "m/feed-short.csv"]),
                # 0: read whole (or changed: nothing pruned); 3: a steady short read meets the brake;
                # 66: changed during both reads; 1, 2: a row cut mid-id whose job cannot render;
                # 64: a read that caught the file empty or torn between the export's writes, and
                # saw no change while it read (a steady read of a broken version).
                expect=frozenset({0, 1, 2, 3, 64, 66}), names=[path, "products.csv"], protected=rendered,
                # A read cut mid-line may make a job of a partial id: its output is the run's own.
                owned=batch_owned(path, [], "") + ["m/out/*.png", "m/out/.*.png.slicevid.json", "m/products.csv"],
                note=f"4 rows rendered, then batch {' '.join(flags)} while products.csv flips between 4 rows and 1")


def giant_cell(rng, root, ctx):
    """A feed with one giant cell: in a column placed in the output path (refused, 64, in a
    moment and within the memory bound, naming the feed's line), or in a column no job uses
    (under the row limit: rendered, its sidecar small, and a second run finds it up to date;
    over it: refused like any row over 1 MiB)."""
    images = _stills(rng, root, ctx.corpus)
    where = rng.choice(["path", "unused", "unused-over"])
    size = {"path": rng.choice([2 << 20, 20 << 20, 60 << 20]), "unused": rng.choice([200_000, 900_000]),
            "unused-over": rng.choice([(1 << 20) + 10, 8 << 20])}[where]
    unit = rng.choice(["a", "é", "x/"]).encode()
    if where != "path":
        unit = unit.replace(b"/", b"_")

    def cell():
        """The cell a MiB at a time: the worker never holds it (its peak would count in every
        slicevid it starts afterwards)."""
        chunk = unit * ((1 << 20) // len(unit))
        for _ in range(size // len(chunk)):
            yield chunk
        yield unit * ((size % len(chunk)) // len(unit))

    def rows():
        yield b"sku,name,note\n"
        yield b"NL-101,mug,fine\n"
        yield b"NL-102," if where == "path" else b"NL-102,cup,"
        yield from cell()
        yield b",fine\n" if where == "path" else b"\n"
    documents_file(root, "m/products.csv", rows())
    outputs = "out/{name}/{sku}.png"
    path = _feed_campaign(root, images, [], outputs=outputs)
    if where == "unused":
        rendered = ["m/out/mug/NL-101.png", "m/out/cup/NL-102.png"]
        sidecars = [os.path.join(os.path.dirname(o), f".{os.path.basename(o)}.slicevid.json") for o in rendered]

        def small_sidecars(case, results, root):
            found = []
            for sidecar in sidecars:
                full = os.path.join(root, sidecar)
                if os.path.exists(full) and os.path.getsize(full) > 64 << 10:
                    found.append(("record-size", f"{sidecar} is {os.path.getsize(full)} bytes: a long value is kept whole, not as its digest"))
            return found
        return Case(index=0, category="feed", kind="feed/giant-cell-unused", owner=FEED_OWNER,
                    runs=[["batch", path, "-q"], ["batch", path, "--plan"], ["batch", path, "-q"]], sequential=True, batch=True,
                    expect=frozenset({0}), names=[path], outputs=rendered, owned=batch_owned(path, rendered, ""),
                    verify=[small_sidecars], note=f"a {size}-byte cell in a column no job uses; run, plan, run")
    return Case(index=0, category="feed", kind=f"feed/giant-cell-{where}", owner=FEED_OWNER, runs=[["batch", path, *rng.choice([[], ["--check"], ["--plan"]])]],
                batch=True, expect=frozenset({64}), names=["products.csv"], outputs=[], owned=batch_owned(path, [], ""),
                note=f"a {size}-byte cell in {'the column placed in the output path' if where == 'path' else 'a column no job uses'}")


GENERATORS = [(feed_case, 6), (feed_rewritten, 2), (giant_cell, 2)]
