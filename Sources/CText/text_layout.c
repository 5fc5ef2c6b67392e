// Layouts on a private font set: Pango itemizes the text (bidi through FriBidi, scripts,
// fallback along the family list), shapes it with HarfBuzz and breaks it into lines; this file
// sets that up, measures it, finds glyphs no font has, and draws it into coverage masks.

#include "CText.h"
#include "text_fonts.h"
#include <math.h>
#include <stdlib.h>

struct slicevid_text_layout {
    PangoLayout* layout;
};

/// Pixels to Pango units (1/1024 px), rounded.
static int units(double pixels) { return (int)lround(pixels * PANGO_SCALE); }

/// Language attributes over the whole text: `language` on each run of a script it is written in,
/// "und" (no language) on the rest. Pango takes a run's language from its attribute only when
/// that language includes the run's script; otherwise it picks one from the PANGO_LANGUAGE and
/// LANGUAGE environment variables, and shaping (Urdu forms of Arabic digits, say) would depend
/// on how slicevid was started. "und" names no script, so Pango takes it for every run as it is.
/// Returns 0 when out of memory.
static int add_languages(PangoAttrList* attributes, const char* text, int length, PangoLanguage* language) {
    PangoLanguage* none = p_pango_language_from_string("und");
    PangoScriptIter* scripts = p_pango_script_iter_new(text, length);
    if (!scripts) return 0;
    int ok = 1;
    do {
        const char* start = NULL;
        const char* end = NULL;
        PangoScript script = PANGO_SCRIPT_COMMON;
        p_pango_script_iter_get_range(scripts, &start, &end, &script);
        PangoAttribute* attribute = p_pango_attr_language_new(p_pango_language_includes_script(language, script) ? language : none);
        if (!attribute) {
            ok = 0;
            break;
        }
        attribute->start_index = (guint)(start - text);
        attribute->end_index = (guint)(end - text);
        p_pango_attr_list_insert(attributes, attribute);
    } while (p_pango_script_iter_next(scripts));
    p_pango_script_iter_free(scripts);
    return ok;
}

slicevid_text_layout* slicevid_text_layout_create(slicevid_text_fonts* fonts, const slicevid_text_settings* settings) {
    if (!fonts->context) return NULL;
    slicevid_text_layout* result = calloc(1, sizeof *result);
    PangoLayout* layout = p_pango_layout_new(fonts->context);
    PangoFontDescription* description = p_pango_font_description_new();
    PangoAttrList* attributes = p_pango_attr_list_new();
    PangoLanguage* language = p_pango_language_from_string(settings->language);
    if (!result || !layout || !description || !attributes || !language ||
        !add_languages(attributes, settings->text, settings->length, language)) {
        free(result);
        if (layout) p_g_object_unref(layout);
        if (description) p_pango_font_description_free(description);
        if (attributes) p_pango_attr_list_unref(attributes);
        return NULL;
    }
    // Several families, comma-separated: fontconfig sorts the set's faces by them in this
    // order, and Pango takes each character from the first face that has it.
    p_pango_font_description_set_family(description, settings->families);
    p_pango_font_description_set_weight(description, (PangoWeight)settings->weight);
    p_pango_font_description_set_absolute_size(description, settings->size * PANGO_SCALE);
    p_pango_layout_set_font_description(layout, description);
    p_pango_font_description_free(description);
    p_pango_layout_set_attributes(layout, attributes);
    p_pango_attr_list_unref(attributes);
    // Each paragraph's direction from its first strong character; start and end alignment
    // (LEFT and RIGHT to Pango) swap sides for right-to-left paragraphs.
    p_pango_layout_set_auto_dir(layout, TRUE);
    PangoAlignment alignment = settings->alignment == SLICEVID_TEXT_ALIGN_CENTRE ? PANGO_ALIGN_CENTER
                             : settings->alignment == SLICEVID_TEXT_ALIGN_END ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT;
    p_pango_layout_set_alignment(layout, alignment);
    // Whole words: a word wider than the width sticks out (and the text does not fit) rather
    // than being split between letters.
    p_pango_layout_set_wrap(layout, PANGO_WRAP_WORD);
    p_pango_layout_set_width(layout, settings->width > 0 ? units(settings->width) : -1);
    if (settings->ellipsize) {
        p_pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END);
        // A positive height: wrap, and cut the last line that fits; -1: each paragraph on one line.
        p_pango_layout_set_height(layout, settings->wrap && settings->ellipsize_height > 0 ? units(settings->ellipsize_height) : -1);
    }
    if (settings->line_height > 0) p_pango_layout_set_line_spacing(layout, (float)settings->line_height);
    p_pango_layout_set_text(layout, settings->text, settings->length);
    result->layout = layout;
    return result;
}

void slicevid_text_layout_free(slicevid_text_layout* layout) {
    if (!layout) return;
    p_g_object_unref(layout->layout);
    free(layout);
}

void slicevid_text_layout_extents(slicevid_text_layout* layout, slicevid_text_extents* extents) {
    PangoRectangle ink, logical;
    p_pango_layout_get_extents(layout->layout, &ink, &logical);
    extents->ink_x = (double)ink.x / PANGO_SCALE;
    extents->ink_y = (double)ink.y / PANGO_SCALE;
    extents->ink_width = (double)ink.width / PANGO_SCALE;
    extents->ink_height = (double)ink.height / PANGO_SCALE;
    extents->logical_x = (double)logical.x / PANGO_SCALE;
    extents->logical_y = (double)logical.y / PANGO_SCALE;
    extents->logical_width = (double)logical.width / PANGO_SCALE;
    extents->logical_height = (double)logical.height / PANGO_SCALE;
    extents->lines = p_pango_layout_get_line_count(layout->layout);
    extents->wrapped = p_pango_layout_is_wrapped(layout->layout) ? 1 : 0;
    extents->ellipsized = p_pango_layout_is_ellipsized(layout->layout) ? 1 : 0;
    extents->unknown_glyphs = p_pango_layout_get_unknown_glyphs_count(layout->layout);
}

double slicevid_text_layout_line_bottom(slicevid_text_layout* layout, int32_t line) {
    if (line < 0) return -1;
    PangoLayoutIter* iter = p_pango_layout_get_iter(layout->layout);
    if (!iter) return -1;
    int reached = 1;
    for (int32_t i = 0; i < line && reached; i++) reached = p_pango_layout_iter_next_line(iter);
    int top = 0, bottom = -PANGO_SCALE;
    if (reached) p_pango_layout_iter_get_line_yrange(iter, &top, &bottom);
    p_pango_layout_iter_free(iter);
    return (double)bottom / PANGO_SCALE;
}

int32_t slicevid_text_layout_unknown(slicevid_text_layout* layout, uint32_t* characters, int32_t* offsets, int32_t capacity) {
    PangoLayoutIter* iter = p_pango_layout_get_iter(layout->layout);
    if (!iter) return 0;
    int32_t count = 0;
    do {
        PangoLayoutRun* run = p_pango_layout_iter_get_run_readonly(iter);
        if (!run) continue; // the end of a line
        const PangoGlyphString* glyphs = run->glyphs;
        for (int i = 0; i < glyphs->num_glyphs; i++) {
            PangoGlyph glyph = glyphs->glyphs[i].glyph;
            // An unknown glyph is the character itself with PANGO_GLYPH_UNKNOWN_FLAG set
            // (PANGO_GET_UNKNOWN_GLYPH); the cluster maps it back into the text.
            if (!(glyph & PANGO_GLYPH_UNKNOWN_FLAG) || glyph == PANGO_GLYPH_INVALID_INPUT) continue;
            if (count < capacity) {
                characters[count] = glyph & ~PANGO_GLYPH_UNKNOWN_FLAG;
                offsets[count] = run->item->offset + glyphs->log_clusters[i];
            }
            count++;
        }
    } while (p_pango_layout_iter_next_run(iter));
    p_pango_layout_iter_free(iter);
    return count;
}

int32_t slicevid_text_layout_clusters(slicevid_text_layout* layout, slicevid_text_cluster* clusters, int32_t capacity) {
    PangoLayoutIter* iter = p_pango_layout_get_iter(layout->layout);
    if (!iter) return 0;
    int32_t count = 0, line = -1;
    PangoLayoutLine* current = NULL;
    do {
        PangoLayoutLine* here = p_pango_layout_iter_get_line_readonly(iter);
        if (here != current) {
            current = here;
            line++;
        }
        // The end of a line: no run, no cluster.
        if (!p_pango_layout_iter_get_run_readonly(iter)) continue;
        if (count < capacity) {
            PangoRectangle logical;
            p_pango_layout_iter_get_cluster_extents(iter, NULL, &logical);
            int top = 0, bottom = 0;
            p_pango_layout_iter_get_line_yrange(iter, &top, &bottom);
            slicevid_text_cluster* cluster = &clusters[count];
            cluster->start = p_pango_layout_iter_get_index(iter);
            cluster->line = line;
            // A right-to-left cluster's logical width may be given negative.
            cluster->x = (double)(logical.width < 0 ? logical.x + logical.width : logical.x) / PANGO_SCALE;
            cluster->width = (double)(logical.width < 0 ? -logical.width : logical.width) / PANGO_SCALE;
            cluster->top = (double)top / PANGO_SCALE;
            cluster->bottom = (double)bottom / PANGO_SCALE;
        }
        count++;
    } while (p_pango_layout_iter_next_cluster(iter));
    p_pango_layout_iter_free(iter);
    return count;
}

int32_t slicevid_text_mask_stride(int32_t width) {
    return p_cairo_format_stride_for_width(CAIRO_FORMAT_A8, width);
}

/// A Cairo context drawing opaque coverage into `mask`, or NULL with `failure` set.
static cairo_t* mask_context(uint8_t* mask, int32_t width, int32_t height, int32_t stride, const char** failure) {
    cairo_surface_t* surface = p_cairo_image_surface_create_for_data(mask, CAIRO_FORMAT_A8, width, height, stride);
    cairo_status_t status = p_cairo_surface_status(surface);
    if (status != CAIRO_STATUS_SUCCESS) {
        *failure = p_cairo_status_to_string(status);
        p_cairo_surface_destroy(surface);
        return NULL;
    }
    cairo_t* cr = p_cairo_create(surface);
    // The context holds its own reference to the surface.
    p_cairo_surface_destroy(surface);
    status = p_cairo_status(cr);
    if (status != CAIRO_STATUS_SUCCESS) {
        *failure = p_cairo_status_to_string(status);
        p_cairo_destroy(cr);
        return NULL;
    }
    p_cairo_set_source_rgba(cr, 0, 0, 0, 1);
    return cr;
}

/// Cairo's words if drawing failed, after the context is gone.
static const char* finish(cairo_t* cr) {
    cairo_status_t status = p_cairo_status(cr);
    p_cairo_destroy(cr);
    return status == CAIRO_STATUS_SUCCESS ? NULL : p_cairo_status_to_string(status);
}

const char* slicevid_text_draw(slicevid_text_layout* layout, uint8_t* mask, int32_t width, int32_t height, int32_t stride,
                               double x, double y, double outline) {
    const char* failure = NULL;
    cairo_t* cr = mask_context(mask, width, height, stride, &failure);
    if (!cr) return failure;
    p_cairo_move_to(cr, x, y);
    if (outline > 0) {
        // The glyphs' outlines as a path, stroked on both sides: the fill drawn over it later
        // covers the inner half, leaving `outline` pixels outside.
        p_pango_cairo_layout_path(cr, layout->layout);
        p_cairo_set_line_width(cr, 2 * outline);
        p_cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
        p_cairo_stroke(cr);
    } else {
        p_pango_cairo_show_layout(cr, layout->layout);
    }
    return finish(cr);
}

const char* slicevid_text_draw_rectangle(uint8_t* mask, int32_t width, int32_t height, int32_t stride,
                                         double x, double y, double rectangle_width, double rectangle_height, double radius) {
    const char* failure = NULL;
    cairo_t* cr = mask_context(mask, width, height, stride, &failure);
    if (!cr) return failure;
    double r = fmin(radius, fmin(rectangle_width, rectangle_height) / 2);
    if (r <= 0) {
        p_cairo_rectangle(cr, x, y, rectangle_width, rectangle_height);
    } else {
        double right = x + rectangle_width, bottom = y + rectangle_height;
        p_cairo_new_sub_path(cr);
        p_cairo_arc(cr, right - r, y + r, r, -M_PI / 2, 0);
        p_cairo_arc(cr, right - r, bottom - r, r, 0, M_PI / 2);
        p_cairo_arc(cr, x + r, bottom - r, r, M_PI / 2, M_PI);
        p_cairo_arc(cr, x + r, y + r, r, M_PI, 3 * M_PI / 2);
        p_cairo_close_path(cr);
    }
    p_cairo_fill(cr);
    return finish(cr);
}
