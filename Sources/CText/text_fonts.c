// Private font sets: a fontconfig configuration made empty (FcConfigCreate, no configuration
// file read, no directory scanned, no cache written) holding only the files the caller adds,
// and a PangoCairo font map and context on top with every rendering option fixed, so the
// same text and font bytes give the same pixels whatever the machine has installed.

#include "CText.h"
#include "text_fonts.h"
#include <stdlib.h>

slicevid_text_fonts* slicevid_text_fonts_create(void) {
    slicevid_text_fonts* fonts = calloc(1, sizeof *fonts);
    if (!fonts) return NULL;
    fonts->config = p_FcConfigCreate();
    if (!fonts->config) {
        free(fonts);
        return NULL;
    }
    // FcConfigCreate takes FONTCONFIG_SYSROOT from the environment; a sysroot would rewrite the
    // files' names, so the set would depend on how slicevid was started.
    p_FcConfigSetSysRoot(fonts->config, NULL);
    return fonts;
}

void slicevid_text_fonts_free(slicevid_text_fonts* fonts) {
    if (!fonts) return;
    if (fonts->context) p_g_object_unref(fonts->context);
    if (fonts->map) p_g_object_unref(fonts->map);
    p_FcConfigDestroy(fonts->config);
    free(fonts);
}

static FcFontSet* faces(const slicevid_text_fonts* fonts) {
    // The application set: FcConfigAppFontAddFile's fonts. The system set stays empty.
    return p_FcConfigGetFonts(fonts->config, FcSetApplication);
}

int slicevid_text_fonts_add_file(slicevid_text_fonts* fonts, const char* path) {
    if (fonts->map) return -1;
    FcFontSet* before = faces(fonts);
    int count = before ? before->nfont : 0;
    // The caller has made sure `path` names a regular file: given a folder, fontconfig would
    // scan it (and write a cache for it).
    if (!p_FcConfigAppFontAddFile(fonts->config, (const FcChar8*)path)) {
        FcFontSet* after = faces(fonts);
        // FcFalse both for "no font in it" and for a failed allocation; only the first adds nothing.
        return after && after->nfont > count ? -1 : 0;
    }
    FcFontSet* after = faces(fonts);
    return after ? after->nfont - count : 0;
}

int slicevid_text_fonts_face_count(const slicevid_text_fonts* fonts) {
    FcFontSet* set = faces(fonts);
    return set ? set->nfont : 0;
}

static const char* face_string(const slicevid_text_fonts* fonts, int index, const char* object) {
    FcFontSet* set = faces(fonts);
    if (!set || index < 0 || index >= set->nfont) return NULL;
    FcChar8* value = NULL;
    if (p_FcPatternGetString(set->fonts[index], object, 0, &value) != FcResultMatch) return NULL;
    return (const char*)value;
}

const char* slicevid_text_fonts_face_family(const slicevid_text_fonts* fonts, int index) {
    return face_string(fonts, index, FC_FAMILY);
}

const char* slicevid_text_fonts_face_file(const slicevid_text_fonts* fonts, int index) {
    return face_string(fonts, index, FC_FILE);
}

const char* slicevid_text_fonts_face_format(const slicevid_text_fonts* fonts, int index) {
    return face_string(fonts, index, FC_FONTFORMAT);
}

int slicevid_text_fonts_face_color(const slicevid_text_fonts* fonts, int index) {
    FcFontSet* set = faces(fonts);
    if (!set || index < 0 || index >= set->nfont) return 0;
    FcBool color = FcFalse;
    return p_FcPatternGetBool(set->fonts[index], FC_COLOR, 0, &color) == FcResultMatch && color ? 1 : 0;
}

int slicevid_text_fonts_finish(slicevid_text_fonts* fonts) {
    if (fonts->map) return 1;
    // A FreeType font map of our own, not pango_cairo_font_map_get_default(): that one is the
    // thread's, shared with librsvg, and uses the system's fonts. Creating any Pango font map
    // starts fontconfig's default initialisation (FcInit) in a thread of Pango's; it reads the
    // system's configuration, but none of its fonts enter this map, which only asks `config`.
    PangoFontMap* map = p_pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT);
    if (!map) return 0;
    p_pango_fc_font_map_set_config((PangoFcFontMap*)map, fonts->config);
    // 72 dpi: a point is a pixel. Sizes are given absolute (in pixels) anyway; this fixes the
    // one fontconfig pattern field that would otherwise come from the machine.
    p_pango_cairo_font_map_set_resolution((PangoCairoFontMap*)map, 72);
    PangoContext* context = p_pango_font_map_create_context(map);
    cairo_font_options_t* options = p_cairo_font_options_create();
    if (!context || !options || p_cairo_font_options_status(options) != CAIRO_STATUS_SUCCESS) {
        if (options) p_cairo_font_options_destroy(options);
        if (context) p_g_object_unref(context);
        p_g_object_unref(map);
        return 0;
    }
    // Every option a fontconfig rule or a screen setting would otherwise decide: outlines
    // unhinted (no bytecode interpreter or autohinter, whose versions and settings differ),
    // grey antialiasing (no subpixel colour fringes, which would not survive chroma
    // subsampling anyway), metrics unhinted so advances do not snap to whole pixels. The
    // subpixel order stays DEFAULT on purpose: any other value puts FC_RGBA into the font's
    // pattern, from which cairo-ft switches to subpixel antialiasing.
    p_cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
    p_cairo_font_options_set_subpixel_order(options, CAIRO_SUBPIXEL_ORDER_DEFAULT);
    p_cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
    p_cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
    p_pango_cairo_context_set_font_options(context, options);
    p_cairo_font_options_destroy(options);
    p_pango_cairo_context_set_resolution(context, 72);
    p_pango_context_set_round_glyph_positions(context, FALSE);
    // The context's language would otherwise come from the locale; each layout sets its own.
    p_pango_context_set_language(context, p_pango_language_from_string("und"));
    fonts->map = map;
    fonts->context = context;
    return 1;
}
