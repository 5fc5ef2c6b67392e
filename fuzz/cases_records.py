"""Cases about records slicevid reads back — sidecars, reports — and the files they could make it
delete, and about a report page's posters. A campaign is rendered while the case is laid out (an
earlier night), a product then leaves the feed, and tonight's run meets:

- a sidecar with one hostile field (a frame count of -1, 2^31, 1e12 or 2^63-1, stamps of
  another file's size, inode and times, `"files": []`, a size-only stamp, the manifest's name
  on someone else's file, a megabyte of job id, control characters, deep nesting, wrong types);
  the files it names must stay (every record licenses nothing it cannot prove);
- the output folder made writable by others (mode 1777 as a shared sticky folder, 0777, 0775):
  slicevid's own sidecars there license nothing, so nothing is pruned. All of it runs as one
  user: a sidecar planted by another user (another uid) cannot be made here, so the "shared
  folder" is a folder others *could* write, and the forged records are this user's own files;
- a report with hostile fields for `report merge` and `report html` (a job count of 1e9, counts
  past 2^53, megabyte strings, HTML in every text): refused (65) in a moment, or a page in which
  no planted markup survives;
- a job whose output is another job's poster (`index.files/B.jpg` under `--report index.html`),
  or the report itself: refused (64) before anything renders, like two outputs on one file.
"""

import copy
import json
import os

from case import Case, copy_still, victim, write
from cases_documents import batch_owned, documents_file
from cases_feeds import prerender

RECORDS_OWNER = "records"
MANIFEST = "m/campaign.json"


def _stills(root, corpus):
    sound = [s for s in corpus if s.name in ("png-rgb.png", "jpeg-420.jpg")]
    return [os.path.relpath(copy_still(root, f"m/stills/s{i}{os.path.splitext(s.name)[1]}", s), "m") for i, s in enumerate(sound)]


def _night(rng, root, ctx, skus, outputs="out/{sku}.png", report=None):
    """Renders a campaign of one job per sku (the night before), then drops the last sku from
    the feed; returns the rendered outputs (case-relative), the withdrawn one last."""
    images = _stills(root, ctx.corpus)
    write(root, "m/products.csv", "sku\n" + "".join(f"{s}\n" for s in skus))
    template = {"id": "{sku}", "rows": {"file": "products.csv", "key": "sku"}, "images": images, "outputs": outputs}
    manifest = {"defaults": {"size": "32x18", "fps": 10, "hold": 0, "duration": 0.2}, "jobs": [template]}
    os.makedirs(os.path.join(root, "m/out"), exist_ok=True)
    documents_file(root, MANIFEST, json.dumps(manifest).encode())
    prerender(ctx, root, ["batch", MANIFEST, "-q"] + (["--report", report] if report else []))
    write(root, "m/products.csv", "sku\n" + "".join(f"{s}\n" for s in skus[:-1]))
    return [os.path.join("m", outputs.replace("{sku}", s)) for s in skus]


def _sidecar(output):
    return os.path.join(os.path.dirname(output), f".{os.path.basename(output)}.slicevid.json")


HOSTILE_NUMBERS = [-1, 0, 2 ** 31, 2 ** 53 + 1, 2 ** 63 - 1, 2 ** 64, 1e12, 1e308, -0.0, 0.5, "12", None, True, [], {}]


def _hostile(rng, record, victim_stat):
    """One hostile change to a sidecar's JSON; returns (record, what was done)."""
    record = copy.deepcopy(record)
    numbers = [k for k, v in record.items() if isinstance(v, (int, float)) and not isinstance(v, bool)]
    texts = [k for k, v in record.items() if isinstance(v, str)]
    how = rng.choice(["number", "number", "text", "files-empty", "size-only", "stamps-of-victim", "type", "deep", "padding",
                      "drop-field", "extra-field"])
    if how == "number" and numbers:
        key = rng.choice(numbers)
        record[key] = rng.choice(HOSTILE_NUMBERS)
        return record, f"{key} = {record[key]!r}"
    if how == "text" and texts:
        key = rng.choice(texts)
        record[key] = rng.choice(["", "\x1b[2J\n", "../../victim", "x" * (1 << 20), "\ud7ff" * 10, "<script>alert(1)</script>"])
        return record, f"{key} = hostile text"
    files = record.get("files")
    if how == "files-empty":
        record["files"] = []
        return record, "files = []"
    if how == "size-only" and isinstance(files, list) and files and isinstance(files[0], dict):
        record["files"] = [{k: v for k, v in files[0].items() if "size" in k or "bytes" in k}]
        return record, "a size-only stamp"
    if how == "stamps-of-victim" and isinstance(files, list) and files and isinstance(files[0], dict):
        stamp = dict(files[0])
        for key in stamp:
            lower = key.lower()
            if "size" in lower or "bytes" in lower:
                stamp[key] = victim_stat.st_size
            elif "inode" in lower or lower == "ino":
                stamp[key] = victim_stat.st_ino
            elif "dev" in lower:
                stamp[key] = victim_stat.st_dev
            elif "mtime" in lower or "modified" in lower:
                stamp[key] = victim_stat.st_mtime_ns if isinstance(stamp[key], int) and stamp[key] > 1e15 else victim_stat.st_mtime
            elif "ctime" in lower or "changed" in lower:
                stamp[key] = victim_stat.st_ctime_ns if isinstance(stamp[key], int) and stamp[key] > 1e15 else victim_stat.st_ctime
        record["files"] = [stamp]
        if "bytes" in record:
            record["bytes"] = victim_stat.st_size
        return record, "stamps copied from the victim file"
    if how == "type":
        key = rng.choice(list(record))
        record[key] = rng.choice([None, [], {}, "x", 1, [record[key]]])
        return record, f"{key} of another type"
    if how == "deep":
        nested = []
        for _ in range(rng.choice([100, 10_000])):
            nested = [nested]
        record["files"] = nested
        return record, "files nested deeply"
    if how == "padding":
        record["padding"] = "p" * rng.choice([1 << 20, 8 << 20])
        return record, "megabytes of padding"
    if how == "drop-field" and record:
        key = rng.choice(list(record))
        del record[key]
        return record, f"{key} dropped"
    record[rng.choice(["job", "manifest"])] = rng.choice(["NL-999", "\n", "x" * 5000])
    return record, "job or manifest changed"


def hostile_sidecar(rng, root, ctx):
    """Last night's campaign; a victim file (someone else's, or one slicevid never wrote) sits in
    the output folder with a sidecar copied from a withdrawn product's and made hostile; the
    withdrawn product's own sidecar may be hostile too. `batch --prune` (or --plan, --check)
    must keep the victim, whatever the sidecar says."""
    rendered = _night(rng, root, ctx, ["NL-101", "NL-102", "NL-103", "NL-104"])
    withdrawn = rendered[-1]
    with open(os.path.join(root, _sidecar(withdrawn)), "rb") as handle:
        record = json.loads(handle.read())
    target = rng.choice(["m/out/victim.png", "m/out/NL-109.png", "m/out/deeper/v.png"])
    victim(root, target, "someone else's picture\n" * rng.randint(1, 40))
    mutated, what = _hostile(rng, record, os.stat(os.path.join(root, target)))
    try:
        data = json.dumps(mutated, allow_nan=True).encode()
    except RecursionError:
        data = _deep_json(mutated)
    write(root, _sidecar(target), data)
    protected = [target]
    if rng.random() < 0.5:
        # The withdrawn product's own sidecar, hostile too: its output may be kept or pruned, never
        # the victim.
        again, other = _hostile(rng, record, os.stat(os.path.join(root, withdrawn)))
        try:
            write(root, _sidecar(withdrawn), json.dumps(again, allow_nan=True).encode())
        except RecursionError:
            write(root, _sidecar(withdrawn), _deep_json(again))
        what += f"; its own sidecar: {other}"
    flags = rng.choice([["--prune", "--prune-max", "100%"], ["--prune"], ["--plan"], ["--check"], ["--prune", "--plan", "--prune-max", "100%"]])
    return Case(index=0, category="record", kind="record/sidecar", owner=RECORDS_OWNER, runs=[["batch", MANIFEST, *flags]], batch=True,
                expect=frozenset({0, 1, 2, 3}), names=[MANIFEST], protected=protected + rendered[:-1],
                outputs=rendered[:-1], owned=batch_owned(MANIFEST, rendered[:-1], "") + [withdrawn, _sidecar(withdrawn)],
                note=f"sidecar beside {target}: {what}; batch {' '.join(flags)}")


def _deep_json(record):
    """json.dumps refuses deep nesting (recursion); written by hand."""
    depth, node = 0, record["files"]
    while isinstance(node, list) and node:
        depth += 1
        node = node[0]
    rest = {k: v for k, v in record.items() if k != "files"}
    body = json.dumps(rest)[:-1]
    return (body + (", " if rest else "") + '"files": ' + "[" * depth + "]" * depth + "}").encode()


def shared_folder(rng, root, ctx):
    """Last night's outputs in a folder others may write (a shared sticky folder, 1777; or 0777,
    0775): the withdrawn product's sidecar is slicevid's own, but it sits where anyone could have
    planted it, so it licenses nothing and `--prune` keeps its output."""
    subfolder = rng.random() < 0.5
    rendered = _night(rng, root, ctx, ["NL-101", "NL-102", "NL-103"], outputs="out/shared/{sku}.png" if subfolder else "out/{sku}.png")
    folder = os.path.dirname(rendered[0])
    mode = rng.choice([0o1777, 0o1777, 0o777, 0o775])
    os.chmod(os.path.join(root, folder), mode)
    withdrawn = rendered[-1]
    return Case(index=0, category="record", kind=f"record/shared-folder-{mode:o}", owner=RECORDS_OWNER,
                runs=[["batch", MANIFEST, "--prune", "--prune-max", "100%"]], batch=True,
                # The jobs still in the feed are up to date (0) or, if a re-render is needed, may
                # not replace files in such a folder (1, 2).
                expect=frozenset({0, 1, 2}), names=[MANIFEST], protected=[withdrawn, _sidecar(withdrawn)] + rendered,
                outputs=rendered[:-1], owned=batch_owned(MANIFEST, rendered[:-1], ""),
                note=f"{folder} is mode {mode:o}; {withdrawn} left the feed (simulated as one user: the records are this user's own)")


def hostile_report(rng, root, ctx):
    """`report merge` or `report html` of a real report with one hostile field."""
    _night(rng, root, ctx, ["NL-101", "NL-102"], report="m/r.json")
    with open(os.path.join(root, "m/r.json"), "rb") as handle:
        report = json.loads(handle.read())
    how = rng.choice(["manifest_jobs", "counts", "text", "html", "jobs", "orphans", "schema", "seconds", "shard", "padding"])
    planted = "<script>alert('slicevid')</script><img src=x onerror=alert(1)>"
    if how == "manifest_jobs":
        report["manifest_jobs"] = rng.choice([10 ** 9, -1, 2 ** 63, 1e300, "2", None])
    elif how == "counts":
        report["counts"] = {rng.choice(["rendered", "x" * 300, "pruned"]): rng.choice([2 ** 60, -5, 1.5, "9"])}
    elif how == "text":
        report[rng.choice(["manifest", "slicevid", "started", "status"])] = rng.choice(["x" * (2 << 20), "\x1b]0;t\x07", "\u2028"])
    elif how == "html":
        for job in report.get("jobs", []):
            job["id"] = planted
            job["error"] = planted
            job["why"] = planted
        report["manifest"] = "/srv/" + planted
    elif how == "jobs":
        report["jobs"] = rng.choice([[1, "x", None], [{}] * 1000, report.get("jobs", []) * 3, "many"])
    elif how == "orphans":
        report["orphans"] = [{"path": planted, "job": "\x1b[31m", "bytes": 2 ** 70, "kept": planted}]
    elif how == "schema":
        report["schema"] = rng.choice([99999, -3, "3", 3.5])
    elif how == "seconds":
        report["seconds"] = rng.choice([1e300, -1, "fast"])
    elif how == "shard":
        report["shard"] = rng.choice(["0/0", "5/2", "999999999/1000000000", "a/b"])
    else:
        report["padding"] = "p" * (6 << 20)
    write(root, "m/hostile.json", json.dumps(report))
    merge = rng.random() < 0.5
    if merge:
        argv = ["report", "merge", "m/hostile.json", rng.choice(["m/r.json", "m/hostile.json"]), "-o", "m/merged.json"]
        output = "m/merged.json"
    else:
        argv = ["report", "html", "m/hostile.json", "-o", "m/page.html"]
        output = "m/page.html"

    def no_markup(case, results, root):
        page = os.path.join(root, output)
        if output.endswith(".html") and os.path.exists(page):
            with open(page, "rb") as handle:
                html = handle.read()
            if b"<script>alert('slicevid')" in html or b"<img src=x onerror" in html:
                return [("injection", "planted markup reached the page unescaped")]
        return []
    return Case(index=0, category="record", kind=f"record/report-{how}", owner=RECORDS_OWNER, runs=[argv],
                # 1: a merge that is incomplete (a shard missing) says so with 1.
                expect=frozenset({0, 1, 64, 65}), names=["m/hostile.json", "hostile.json"], outputs=[output],
                verify=[no_markup], note=f"report {'merge' if merge else 'html'} of a report whose {how} is hostile")


def poster_collision(rng, root, ctx):
    """A job's output is where the report page puts another job's poster (or is the page's own
    JSON, or the page): refused like two outputs on one file, before anything renders."""
    images = _stills(root, ctx.corpus)
    how = rng.choice(["poster", "poster", "json", "page"])
    target = {"poster": "index.files/B.jpg", "json": "index.json", "page": "index.html"}[how]
    jobs = [{"id": "A", "images": images, "outputs": [target if how == "poster" else "out/A.jpg"]},
            {"id": "B", "images": images, "outputs": ["out/B.mp4"]}]
    if how != "poster":
        jobs[0]["outputs"] = [target]
    manifest = {"defaults": {"size": "32x18", "fps": 10, "hold": 0, "duration": 0.2}, "jobs": jobs}
    documents_file(root, MANIFEST, json.dumps(manifest).encode())
    os.makedirs(os.path.join(root, "m/out"), exist_ok=True)
    return Case(index=0, category="record", kind=f"record/poster-collision-{how}", owner=RECORDS_OWNER,
                runs=[["batch", MANIFEST, "--report", "m/index.html", *rng.choice([[], ["-q"], ["--parallel", "2"]])]],
                batch=True, expect=frozenset({64}), names=[MANIFEST, "index"], outputs=[],
                owned=batch_owned(MANIFEST, [], ""), note=f"job A writes {target} under --report m/index.html")


GENERATORS = [(hostile_sidecar, 5), (shared_folder, 2), (hostile_report, 4), (poster_collision, 2)]
