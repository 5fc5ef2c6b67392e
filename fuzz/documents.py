"""Presets and manifests as JSON documents, and their mutations: structure (keys dropped,
unknown, repeated; values wrapped; the root replaced; deep nesting), values (odd numbers,
strings with control characters and escapes, wrong types) and text (trailing commas, a BOM,
UTF-16, comments, truncation, raw control characters, invalid UTF-8).

A document is a tree of Obj (a list of key/value pairs, so keys can repeat), lists, str, int,
float, bool, None and Raw (JSON text written as is). Every mutation says whether the result is
certainly invalid (slicevid must refuse it with 64) and whether it touched a field that decides
how much work a render is (then the case only plans: --dry-run or --check).
"""

import json
import math
import re

import values

JSON_NUMBER = re.compile(r"-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?")


class Obj(list):
    """A JSON object as [(key, value), …]."""

    def get(self, key, default=None):
        return next((v for k, v in self if k == key), default)

    def set(self, key, value):
        for i, (k, _) in enumerate(self):
            if k == key:
                self[i] = (key, value)
                return
        self.append((key, value))


class Raw(str):
    """JSON text written verbatim (a number JSON may not allow, a literal control character)."""


def dumps(node, indent=0):
    """Serialises a document, two spaces per level."""
    pad, inner = "  " * indent, "  " * (indent + 1)
    if isinstance(node, Raw):
        return str(node)
    if isinstance(node, Obj):
        if not node:
            return "{}"
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {dumps(v, indent + 1)}" for k, v in node]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(node, list):
        if not node:
            return "[]"
        return "[\n" + ",\n".join(inner + dumps(v, indent + 1) for v in node) + "\n" + pad + "]"
    return json.dumps(node, ensure_ascii=False)


def base_preset(rng):
    """A valid preset: a description and a few fields with ordinary values."""
    fields = [("description", "fuzz preset"), ("easing", rng.choice(["spring", "ease-in-out", "linear"])),
              ("slices", rng.choice([8, "4px"])), ("direction", rng.choice(["vertical", "horizontal"])),
              ("travel", [1, 2]), ("seed", 7), ("background", "#102030"), ("fit", "cover"),
              ("size", "32x18"), ("fps", 10), ("hold", 0), ("duration", 0.2), ("end-hold", 0),
              ("stagger", 0), ("motion-blur", 1)]
    return Obj(fields[:1] + rng.sample(fields[1:], rng.randint(3, len(fields) - 1)))


def paths(node, prefix=()):
    """Every (path, key) in the tree, where key is the object key or None for array items."""
    found = []
    if isinstance(node, Obj):
        for i, (k, v) in enumerate(node):
            found.append((prefix + (i,), k))
            found += paths(v, prefix + (i,))
    elif isinstance(node, list) and not isinstance(node, Raw):
        for i, v in enumerate(node):
            found.append((prefix + (i,), None))
            found += paths(v, prefix + (i,))
    return found


def get(node, path):
    for step in path:
        node = node[step][1] if isinstance(node, Obj) else node[step]
    return node


def put(node, path, value):
    """Replaces the value at `path` (the root when the path is empty is not supported)."""
    parent = get(node, path[:-1])
    if isinstance(parent, Obj):
        parent[path[-1]] = (parent[path[-1]][0], value)
    else:
        parent[path[-1]] = value


def odd_value(rng, key):
    """A replacement for the value of `key`: the field's odd values when it is a known field,
    else odd numbers, strings and types. Returns (node, certainly invalid?)."""
    if key in values.VALUES and rng.random() < 0.6:
        text, invalid = values.field_value(rng, key)
        if rng.random() < 0.5 and _is_number(text):
            # As a JSON number the text may read differently ("seed": 1e3 is 1000): only
            # what is no JSON number, or no finite one, stays certainly invalid.
            return Raw(text), not JSON_NUMBER.fullmatch(text) or not math.isfinite(float(text))
        return text, invalid
    pick = rng.random()
    if pick < 0.4:
        text, invalid = values.split(rng.choice(values.JSON_NUMBERS))
        return Raw(text), invalid
    if pick < 0.75:
        return rng.choice(values.STRINGS), False
    return rng.choice([True, False, None, [], Obj(), [1, 2], Obj([("a", 1)]), [[[]]]]), False


def _is_number(text):
    # Spaces around a number are JSON whitespace once written raw: " 0.2" would be 0.2, valid.
    if text != text.strip():
        return False
    try:
        float(text)
        return True
    except ValueError:
        return False


# Tree mutations: (rng, document) -> (document, certainly invalid?, cost field touched?, name)

def replace_value(rng, doc):
    """An odd value for a random field."""
    path, key = rng.choice(paths(doc))
    value, invalid = odd_value(rng, key)
    put(doc, path, value)
    label = key if key in values.VALUES or key in ("id", "images", "outputs", "path", "jobs") else "other"
    return doc, invalid, key in values.COST_FIELDS or key in ("defaults", "preset"), f"value-{label}"


def drop_key(rng, doc):
    """A key left out."""
    objects = [p for p, _ in paths(doc) if isinstance(get(doc, p), Obj) and get(doc, p)] + [()]
    target = get(doc, rng.choice(objects))
    key = None
    if isinstance(target, Obj) and target:
        key = target.pop(rng.randrange(len(target)))[0]
    # Without its defaults (or a cost field) a job renders at the built-in 1920x1080.
    return doc, False, key in values.COST_FIELDS or key in ("defaults", "preset"), "drop-key"


def unknown_key(rng, doc):
    """A key nobody accepts: a typo, a case change, an empty or control-character key."""
    objects = [get(doc, p) for p, _ in paths(doc) if isinstance(get(doc, p), Obj)] + [doc]
    key = rng.choice(["slicez", "Size", "", " size", "size\u0000", "\x1b[2Jkey", "k" * 5000, "__proto__"])
    rng.choice(objects).append((key, 1))
    return doc, True, False, "unknown-key"


def duplicate_key(rng, doc):
    """A key given twice in one object (parsers keep the last silently; slicevid must not)."""
    objects = [get(doc, p) for p, _ in paths(doc) if isinstance(get(doc, p), Obj) and get(doc, p)] + [doc]
    target = rng.choice(objects)
    key, value = rng.choice(target)
    target.insert(rng.randrange(len(target) + 1), (key, value if rng.random() < 0.5 else odd_value(rng, key)[0]))
    return doc, True, key in values.COST_FIELDS, "duplicate-key"


def wrap_value(rng, doc):
    """A value wrapped in an array or object, or nested thousands deep."""
    path, key = rng.choice(paths(doc))
    value = get(doc, path)
    how = rng.choice(["array", "object", "deep"])
    if how == "deep":
        depth = rng.choice([100, 10000, 100000])
        put(doc, path, Raw("[" * depth + "1" + "]" * depth))
    else:
        put(doc, path, [value] if how == "array" else Obj([("value", value)]))
    return doc, False, False, f"wrap-{how}"


def replace_root(rng, doc):
    """The whole document another type."""
    return rng.choice([[], "", 1, None, [doc]]), True, False, "root"


TREE = [replace_value, replace_value, replace_value, drop_key, unknown_key, duplicate_key, wrap_value, replace_root]


# Text mutations: (rng, text) -> (bytes, certainly invalid?, name)

def trailing_comma(rng, text):
    closers = [i for i, c in enumerate(text) if c in "}]"]
    at = rng.choice(closers) if closers else len(text)
    return (text[:at].rstrip() + ",\n" + text[at:]).encode(), True, "trailing-comma"


def byte_order_mark(rng, text):
    return b"\xef\xbb\xbf" + text.encode(), True, "bom"


def utf16(rng, text):
    encoding = rng.choice(["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
    return text.encode(encoding), True, encoding


def comment(rng, text):
    at = text.find("\n") + 1
    return (text[:at] + rng.choice(["// note\n", "/* note */\n", "# note\n"]) + text[at:]).encode(), True, "comment"


def single_quotes(rng, text):
    return text.replace('"', "'").encode(), "'" in text.replace('"', "'"), "single-quotes"


def cut(rng, text):
    data = text.encode()
    return data[:rng.randrange(max(1, len(data)))], True, "truncate"


def raw_control(rng, text):
    """A literal control character next to a quote: inside a string JSON requires an escape,
    outside one it is no whitespace JSON allows."""
    quotes = [i for i, c in enumerate(text) if c == '"'] or [len(text) - 1]
    at = rng.choice(quotes) + 1
    return (text[:at] + rng.choice(["\x00", "\x01", "\x1b", "\x1f"]) + text[at:]).encode(), True, "raw-control"


def invalid_utf8(rng, text):
    data = text.encode()
    at = data.find(b'"') + 1 if b'"' in data else len(data)
    return data[:at] + rng.choice([b"\xff", b"\xc0\x80", b"\xed\xa0\x80", b"\xe2\x82"]) + data[at:], True, "invalid-utf8"


def trailing_data(rng, text):
    return (text + rng.choice(["\n{}", " 1", "\x00", "\n]"])).encode(), True, "trailing-data"


def whitespace(rng, text):
    return (rng.choice(["\n\n", "\t", " \r\n"]) + text + "\n  \n").encode(), False, "whitespace"


TEXT = [trailing_comma, byte_order_mark, utf16, comment, single_quotes, cut, raw_control, invalid_utf8,
        trailing_data, whitespace]


def mutate(rng, doc):
    """Mutates a document: a third of the time only its text (so a strictness defect is not
    hidden behind another error), otherwise one to three tree mutations, now and then followed
    by a text one. Returns (bytes, certainly invalid?, cost field touched?, name)."""
    invalid, cost, names = False, False, []
    text_only = rng.random() < 0.35
    for _ in range(0 if text_only else rng.choice([1, 1, 2, 3])):
        if not (isinstance(doc, (Obj, list)) and paths(doc)):
            break
        doc, bad, costly, name = rng.choice(TREE)(rng, doc)
        invalid, cost = invalid or bad, cost or costly
        names.append(name)
        if invalid:
            break  # a later mutation could undo the flaw (drop the repeated key, say)
    text = dumps(doc)
    if text_only or rng.random() < 0.15:
        data, bad, name = rng.choice(TEXT)(rng, text)
        names.append(name)
        return data, invalid or bad, cost, "+".join(names)
    return text.encode(), invalid, cost, "+".join(names)
