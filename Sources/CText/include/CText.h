// Text layers' C floor: Pango (with HarfBuzz and FriBidi), PangoCairo, Cairo, fontconfig and FreeType,
// opened with dlopen on the first text layer rather than linked, so runs without text keep
// their start-up. Swift sees only this header, in slicevid's own terms; Pango's, Cairo's and
// fontconfig's types stay inside the C files (text_functions.h), so no Swift target needs
// their headers. Nothing here is thread-safe: SliceMedia's TextEngine calls it under one lock.
#ifndef SLICEVID_CTEXT_H
#define SLICEVID_CTEXT_H

#include <stddef.h>
#include <stdint.h>

/// Opens the libraries and resolves every function the text engine uses, once per process
/// (thread-safe). Returns 1 when all are there, 0 otherwise.
int slicevid_text_load(void);

/// Why slicevid_text_load() said 0 (the dynamic loader's message); empty when it said 1.
const char* slicevid_text_error(void);

/// Unpacks face `index` of a WOFF or WOFF2 font (`size` bytes at `data`, whose header and
/// table directory the caller has checked) into a plain OpenType font with FreeType. Returns
/// its bytes (`*length` of them, at most `limit`; the caller frees them with free()), or NULL
/// when FreeType refuses the font, the result is larger than `limit`, or memory ran out.
uint8_t* slicevid_text_unpack_web_font(const uint8_t* data, size_t size, int index, size_t limit, size_t* length);

/// A private set of fonts: a fontconfig configuration holding only the files added to it (never
/// the system's fonts or configuration), with a Pango font map and context on top whose
/// rendering options are fixed (72 dpi, no hinting, grey antialiasing, unhinted metrics).
typedef struct slicevid_text_fonts slicevid_text_fonts;

/// An empty font set, or NULL when out of memory.
slicevid_text_fonts* slicevid_text_fonts_create(void);
void slicevid_text_fonts_free(slicevid_text_fonts* fonts);

/// Adds the font file at `path` (which the caller has checked is a regular file): returns how
/// many faces it added (a collection or a variable font adds several), 0 when fontconfig finds
/// no font in it, -1 when the set is finished already or memory ran out.
int slicevid_text_fonts_add_file(slicevid_text_fonts* fonts, const char* path);

/// How many faces the set holds, and face `index`'s first family name, file and format
/// ("TrueType", "CFF", "PCF", …); NULL when the face has none. Valid while the set lives.
int slicevid_text_fonts_face_count(const slicevid_text_fonts* fonts);
const char* slicevid_text_fonts_face_family(const slicevid_text_fonts* fonts, int index);
const char* slicevid_text_fonts_face_file(const slicevid_text_fonts* fonts, int index);
const char* slicevid_text_fonts_face_format(const slicevid_text_fonts* fonts, int index);
/// 1 when face `index` has colour glyphs (emoji), which a coverage mask cannot show.
int slicevid_text_fonts_face_color(const slicevid_text_fonts* fonts, int index);

/// Makes the set's font map and context once every file is added. Returns 1, or 0 when Pango
/// or Cairo could not make them.
int slicevid_text_fonts_finish(slicevid_text_fonts* fonts);

/// Paragraph alignment; start and end follow each paragraph's direction (right for Hebrew).
enum {
    SLICEVID_TEXT_ALIGN_START = 0,
    SLICEVID_TEXT_ALIGN_CENTRE = 1,
    SLICEVID_TEXT_ALIGN_END = 2,
};

/// What to lay out, and how.
typedef struct {
    /// UTF-8, `length` bytes; no NUL.
    const char* text;
    int32_t length;
    /// Comma-separated family names, in fallback order.
    const char* families;
    /// CSS-style weight, 100 (thin) … 1000.
    int32_t weight;
    /// The em size in pixels.
    double size;
    /// The width lines are wrapped, aligned (and ellipsized) in, in pixels; <= 0: no width
    /// (lines only at line breaks, aligned to the widest).
    double width;
    /// 1: wrap at word boundaries (a word wider than `width` sticks out); 0: break lines only
    /// at line breaks (Pango still wraps past `width`, which slicevid_text_extents reports).
    int32_t wrap;
    /// 1: cut with "…" at the end of lines that do not fit `width` (and of the last line
    /// within `ellipsize_height` when wrapping).
    int32_t ellipsize;
    /// With `ellipsize` and `wrap`: the height lines must fit in, in pixels.
    double ellipsize_height;
    int32_t alignment;
    /// Baseline-to-baseline distance as a multiple of `size`; 0: the fonts' own line height.
    double line_height;
    /// BCP 47 language tag for shaping and font choice ("und": none).
    const char* language;
} slicevid_text_settings;

/// A laid-out text, shaped at its size; drawn as often as needed.
typedef struct slicevid_text_layout slicevid_text_layout;

/// Lays `settings` out with `fonts` (finished). NULL when out of memory.
slicevid_text_layout* slicevid_text_layout_create(slicevid_text_fonts* fonts, const slicevid_text_settings* settings);
void slicevid_text_layout_free(slicevid_text_layout* layout);

/// A layout's measurements, in pixels, from the layout's origin (its top-left corner).
typedef struct {
    /// Where ink falls (glyph outlines).
    double ink_x, ink_y, ink_width, ink_height;
    /// The lines' boxes: advance widths and line heights, what alignment and fitting use.
    double logical_x, logical_y, logical_width, logical_height;
    int32_t lines;
    /// Whether Pango broke a line that has no line break (text wider than `width`).
    int32_t wrapped;
    /// Whether any line was cut with "…".
    int32_t ellipsized;
    /// Glyphs none of the fonts has (drawn as hex boxes if drawn).
    int32_t unknown_glyphs;
} slicevid_text_extents;

void slicevid_text_layout_extents(slicevid_text_layout* layout, slicevid_text_extents* extents);

/// The bottom of line `line` (0 first) from the layout's top, in pixels; -1 past the last line.
double slicevid_text_layout_line_bottom(slicevid_text_layout* layout, int32_t line);

/// The characters none of the fonts has: up to `capacity` code points with the byte offset in
/// the text of the cluster each stands in, in the order Pango's runs hold them (visual order
/// within a line). Returns how many there are in all (more than `capacity` when cut).
int32_t slicevid_text_layout_unknown(slicevid_text_layout* layout, uint32_t* characters, int32_t* offsets, int32_t capacity);

/// One glyph cluster of a layout (the glyphs HarfBuzz shaped together: a ligature, a letter with
/// its marks, a Devanagari conjunct), in pixels from the layout's origin.
typedef struct {
    /// The byte offset in the text where the cluster starts (it runs to the next cluster's).
    int32_t start;
    /// Its line, 0 first.
    int32_t line;
    /// Its logical box: the advance across, the line's height down.
    double x, width;
    double top, bottom;
} slicevid_text_cluster;

/// The layout's glyph clusters, line by line in visual order (left to right), up to
/// `capacity` of them into `clusters`. Returns how many there are in all.
int32_t slicevid_text_layout_clusters(slicevid_text_layout* layout, slicevid_text_cluster* clusters, int32_t capacity);

/// Bytes from one row to the next of a `width`-pixel coverage mask (Cairo's A8 stride).
int32_t slicevid_text_mask_stride(int32_t width);

/// Draws `layout`'s glyphs with their top-left origin at (x, y) into an 8-bit coverage mask
/// (`width` × `height`, `stride` bytes a row, 0 transparent … 255 covered): filled when
/// `outline` is 0, else their outlines stroked `outline` pixels to each side, with round
/// joins. Returns NULL, or Cairo's words for what failed.
const char* slicevid_text_draw(slicevid_text_layout* layout, uint8_t* mask, int32_t width, int32_t height, int32_t stride,
                               double x, double y, double outline);

/// Fills a rectangle with corners rounded to `radius` pixels into a coverage mask, as
/// slicevid_text_draw draws. Returns NULL, or Cairo's words for what failed.
const char* slicevid_text_draw_rectangle(uint8_t* mask, int32_t width, int32_t height, int32_t stride,
                                         double x, double y, double rectangle_width, double rectangle_height, double radius);

#endif
