"""Cases about a layout's fonts: a mutated TTF, OTF, WOFF, WOFF2 or TTC used as the layout's font
(`make --layout`), font bombs (a WOFF that unpacks to far more than it holds, a WOFF2 declaring
gigabytes, a collection of 100 000 faces), and a font rewritten in place while a batch draws with
it (`cp new.ttf Brand.ttf` beside a running batch; FreeType once mapped the file and died of
SIGBUS). The oracle: a sound font renders (0); a damaged one may render or be refused (65) with
one line naming the font file; a bomb is refused in a moment within the memory bound; a font
rewritten mid-run fails its jobs (1, 2) or is read whole before the rewrite (0) — never a signal.
"""

import os

import fonts
from case import Case, copy_still, weighted, write
from cases_documents import batch_owned

FONTS_OWNER = "fonts"


def _stills(rng, root, corpus, folder):
    sound = [s for s in corpus if s.name in ("png-rgb.png", "jpeg-420.jpg")]
    return [copy_still(root, os.path.join(folder, f"s{i}{os.path.splitext(s.name)[1]}"), s) for i, s in enumerate(sound)]


def _layout(font_name, on):
    """A layout drawing one word in the font (first in the list: the default set only fills in
    what it lacks), on the destination card or over the frames."""
    return ('{"fonts": ["%s"], "layers": [{"on": "%s", "text": "Sale 12,50", "box": [0.05, 0.1, 0.9, 0.8], '
            '"size": "auto", "color": "#FFFFFF"}]}' % (font_name, on))


def font_file(rng, root, ctx):
    """`make --layout promo.json` whose font is a mutated font or a font bomb of any kind."""
    seed = fonts.seed()
    kind = weighted(rng, fonts.KINDS) if seed else "not-a-font"
    data, extension, note = fonts.make(rng, kind, seed or b"")
    font = write(root, "fonts/brand" + extension, data)
    write(root, "promo.json", _layout(font, rng.choice(["to", "over"])))
    images = _stills(rng, root, ctx.corpus, "stills")
    output = rng.choice(["out.png", "out.mp4"])
    dry = rng.random() < 0.3
    argv = ["make", "--from", images[0], "--to", images[1], "--layout", "promo.json", "--size", "96x54", "--fps", "10",
            "--hold", "0", "--duration", "0.2", "-o", output, "-q"] + (["--dry-run"] if dry else [])
    sound = kind in ("ttf", "otf-named", "woff", "ttc")
    return Case(index=0, category="font", kind=f"font/{kind}", owner=FONTS_OWNER, runs=[argv],
                expect=frozenset({0}) if sound else frozenset({0, 65}), names=[font, "promo.json"],
                outputs=[] if dry else [output], note=f"{note}{'; dry run' if dry else ''}")


def font_rewritten(rng, root, ctx):
    """A batch of several jobs drawing with fonts/brand.ttf while it is rewritten in place, over
    and over: with itself (the same bytes, new times), with another font, with a cut copy."""
    seed = fonts.seed()
    if seed is None:
        return font_file(rng, root, ctx)
    write(root, "m/fonts/brand.ttf", seed)
    other = rng.choice(["same", "cut", "woff", "other"])
    versions = ["m/fonts/v0.ttf", "m/fonts/v1.ttf"]
    write(root, versions[0], seed)
    if other == "same":
        write(root, versions[1], seed)
    elif other == "cut":
        write(root, versions[1], seed[:rng.randrange(12, len(seed))])
    elif other == "woff":
        write(root, versions[1], fonts.woff(seed))
    else:
        flipped, _ = fonts.stills.flip_bits(rng, seed, "font", [])
        write(root, versions[1], flipped)
    write(root, "m/promo.json", _layout("fonts/brand.ttf", rng.choice(["to", "over"])))
    images = [os.path.relpath(p, "m") for p in _stills(rng, root, ctx.corpus, "m/stills")]
    count = rng.randint(3, 8)
    jobs = ",\n  ".join(f'{{"id": "j{i}", "layout": "promo.json", "images": ["{images[0]}", "{images[1]}"], '
                        f'"outputs": ["out/j{i}.png"]}}' for i in range(count))
    write(root, "m/campaign.json", '{"defaults": {"size": "96x54", "fps": 10, "hold": 0, "duration": 0.2},\n "jobs": [' + jobs + "]}\n")
    os.makedirs(os.path.join(root, "m/out"), exist_ok=True)
    outputs = [f"m/out/j{i}.png" for i in range(count)]
    argv = ["batch", "m/campaign.json", "--parallel", rng.choice(["1", "2"]), "--log-format", "plain"]
    return Case(index=0, category="font", kind=f"font/rewritten-{other}", owner=FONTS_OWNER, runs=[argv], batch=True,
                sequential=True, during=("m/fonts/brand.ttf", versions),
                # 65: a font cut or damaged as the batch first read it refuses the whole batch's layout.
                expect=frozenset({0, 1, 2, 65}), names=["m/campaign.json", "brand.ttf"], outputs=outputs,
                owned=batch_owned("m/campaign.json", outputs, "") + ["m/fonts/brand.ttf"],
                note=f"{count} jobs; fonts/brand.ttf rewritten in place with {other} while the batch runs")


GENERATORS = [(font_file, 4), (font_rewritten, 1)]
