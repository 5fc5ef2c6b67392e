// The Pango, PangoCairo, Cairo, fontconfig, FreeType and GObject functions the text engine calls, each
// through a pointer that text_loader.c resolves with dlsym: p_NAME calls NAME. Their types come
// from the libraries' own headers (Debian's libpango1.0-dev, libcairo2-dev, libfontconfig-dev).
// Macros that call functions (PANGO_FC_FONT_MAP, G_OBJECT, …) are not used: they would link.
#ifndef SLICEVID_TEXT_FUNCTIONS_H
#define SLICEVID_TEXT_FUNCTIONS_H

#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_TRUETYPE_TABLES_H
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>

/// The libraries, in the order they are opened (each after those it needs).
#define SLICEVID_TEXT_LIBRARIES(X) \
    X(GOBJECT, "libgobject-2.0.so.0") \
    X(FREETYPE, "libfreetype.so.6") \
    X(FONTCONFIG, "libfontconfig.so.1") \
    X(CAIRO, "libcairo.so.2") \
    X(PANGO, "libpango-1.0.so.0") \
    X(PANGOFT2, "libpangoft2-1.0.so.0") \
    X(PANGOCAIRO, "libpangocairo-1.0.so.0")

#define SLICEVID_TEXT_LIBRARY_INDEX(name, file) SLICEVID_TEXT_##name,
enum { SLICEVID_TEXT_LIBRARIES(SLICEVID_TEXT_LIBRARY_INDEX) SLICEVID_TEXT_LIBRARY_COUNT };
#undef SLICEVID_TEXT_LIBRARY_INDEX

/// X(library, result, name, parameters)
#define SLICEVID_TEXT_FUNCTIONS(X) \
    X(GOBJECT, void, g_object_unref, (gpointer object)) \
    X(FREETYPE, FT_Error, FT_Init_FreeType, (FT_Library* library)) \
    X(FREETYPE, FT_Error, FT_Done_FreeType, (FT_Library library)) \
    X(FREETYPE, FT_Error, FT_New_Memory_Face, (FT_Library library, const FT_Byte* base, FT_Long size, FT_Long index, FT_Face* face)) \
    X(FREETYPE, FT_Error, FT_Done_Face, (FT_Face face)) \
    X(FREETYPE, FT_Error, FT_Load_Sfnt_Table, (FT_Face face, FT_ULong tag, FT_Long offset, FT_Byte* buffer, FT_ULong* length)) \
    X(FONTCONFIG, FcConfig*, FcConfigCreate, (void)) \
    X(FONTCONFIG, void, FcConfigDestroy, (FcConfig* config)) \
    X(FONTCONFIG, void, FcConfigSetSysRoot, (FcConfig* config, const FcChar8* sysroot)) \
    X(FONTCONFIG, FcBool, FcConfigAppFontAddFile, (FcConfig* config, const FcChar8* file)) \
    X(FONTCONFIG, FcFontSet*, FcConfigGetFonts, (FcConfig* config, FcSetName set)) \
    X(FONTCONFIG, FcResult, FcPatternGetString, (const FcPattern* pattern, const char* object, int n, FcChar8** value)) \
    X(FONTCONFIG, FcResult, FcPatternGetBool, (const FcPattern* pattern, const char* object, int n, FcBool* value)) \
    X(CAIRO, cairo_font_options_t*, cairo_font_options_create, (void)) \
    X(CAIRO, void, cairo_font_options_destroy, (cairo_font_options_t* options)) \
    X(CAIRO, cairo_status_t, cairo_font_options_status, (cairo_font_options_t* options)) \
    X(CAIRO, void, cairo_font_options_set_antialias, (cairo_font_options_t* options, cairo_antialias_t antialias)) \
    X(CAIRO, void, cairo_font_options_set_subpixel_order, (cairo_font_options_t* options, cairo_subpixel_order_t order)) \
    X(CAIRO, void, cairo_font_options_set_hint_style, (cairo_font_options_t* options, cairo_hint_style_t style)) \
    X(CAIRO, void, cairo_font_options_set_hint_metrics, (cairo_font_options_t* options, cairo_hint_metrics_t metrics)) \
    X(CAIRO, int, cairo_format_stride_for_width, (cairo_format_t format, int width)) \
    X(CAIRO, cairo_surface_t*, cairo_image_surface_create_for_data, \
      (unsigned char* data, cairo_format_t format, int width, int height, int stride)) \
    X(CAIRO, cairo_status_t, cairo_surface_status, (cairo_surface_t* surface)) \
    X(CAIRO, void, cairo_surface_destroy, (cairo_surface_t* surface)) \
    X(CAIRO, cairo_t*, cairo_create, (cairo_surface_t* target)) \
    X(CAIRO, void, cairo_destroy, (cairo_t* cr)) \
    X(CAIRO, cairo_status_t, cairo_status, (cairo_t* cr)) \
    X(CAIRO, const char*, cairo_status_to_string, (cairo_status_t status)) \
    X(CAIRO, void, cairo_set_source_rgba, (cairo_t* cr, double red, double green, double blue, double alpha)) \
    X(CAIRO, void, cairo_set_line_width, (cairo_t* cr, double width)) \
    X(CAIRO, void, cairo_set_line_join, (cairo_t* cr, cairo_line_join_t join)) \
    X(CAIRO, void, cairo_new_sub_path, (cairo_t* cr)) \
    X(CAIRO, void, cairo_close_path, (cairo_t* cr)) \
    X(CAIRO, void, cairo_move_to, (cairo_t* cr, double x, double y)) \
    X(CAIRO, void, cairo_rectangle, (cairo_t* cr, double x, double y, double width, double height)) \
    X(CAIRO, void, cairo_arc, (cairo_t* cr, double xc, double yc, double radius, double angle1, double angle2)) \
    X(CAIRO, void, cairo_fill, (cairo_t* cr)) \
    X(CAIRO, void, cairo_stroke, (cairo_t* cr)) \
    X(PANGO, PangoContext*, pango_font_map_create_context, (PangoFontMap* fontmap)) \
    X(PANGO, PangoLanguage*, pango_language_from_string, (const char* language)) \
    X(PANGO, void, pango_context_set_language, (PangoContext* context, PangoLanguage* language)) \
    X(PANGO, void, pango_context_set_round_glyph_positions, (PangoContext* context, gboolean round_positions)) \
    X(PANGO, PangoFontDescription*, pango_font_description_new, (void)) \
    X(PANGO, void, pango_font_description_free, (PangoFontDescription* desc)) \
    X(PANGO, void, pango_font_description_set_family, (PangoFontDescription* desc, const char* family)) \
    X(PANGO, void, pango_font_description_set_weight, (PangoFontDescription* desc, PangoWeight weight)) \
    X(PANGO, void, pango_font_description_set_absolute_size, (PangoFontDescription* desc, double size)) \
    X(PANGO, PangoAttrList*, pango_attr_list_new, (void)) \
    X(PANGO, void, pango_attr_list_unref, (PangoAttrList* list)) \
    X(PANGO, void, pango_attr_list_insert, (PangoAttrList* list, PangoAttribute* attr)) \
    X(PANGO, PangoAttribute*, pango_attr_language_new, (PangoLanguage* language)) \
    X(PANGO, gboolean, pango_language_includes_script, (PangoLanguage* language, PangoScript script)) \
    X(PANGO, PangoScriptIter*, pango_script_iter_new, (const char* text, int length)) \
    X(PANGO, void, pango_script_iter_get_range, (PangoScriptIter* iter, const char** start, const char** end, PangoScript* script)) \
    X(PANGO, gboolean, pango_script_iter_next, (PangoScriptIter* iter)) \
    X(PANGO, void, pango_script_iter_free, (PangoScriptIter* iter)) \
    X(PANGO, PangoLayout*, pango_layout_new, (PangoContext* context)) \
    X(PANGO, void, pango_layout_set_attributes, (PangoLayout* layout, PangoAttrList* attrs)) \
    X(PANGO, void, pango_layout_set_font_description, (PangoLayout* layout, const PangoFontDescription* desc)) \
    X(PANGO, void, pango_layout_set_text, (PangoLayout* layout, const char* text, int length)) \
    X(PANGO, void, pango_layout_set_width, (PangoLayout* layout, int width)) \
    X(PANGO, void, pango_layout_set_height, (PangoLayout* layout, int height)) \
    X(PANGO, void, pango_layout_set_wrap, (PangoLayout* layout, PangoWrapMode wrap)) \
    X(PANGO, void, pango_layout_set_ellipsize, (PangoLayout* layout, PangoEllipsizeMode ellipsize)) \
    X(PANGO, void, pango_layout_set_alignment, (PangoLayout* layout, PangoAlignment alignment)) \
    X(PANGO, void, pango_layout_set_auto_dir, (PangoLayout* layout, gboolean auto_dir)) \
    X(PANGO, void, pango_layout_set_line_spacing, (PangoLayout* layout, float factor)) \
    X(PANGO, void, pango_layout_get_extents, (PangoLayout* layout, PangoRectangle* ink, PangoRectangle* logical)) \
    X(PANGO, int, pango_layout_get_line_count, (PangoLayout* layout)) \
    X(PANGO, gboolean, pango_layout_is_wrapped, (PangoLayout* layout)) \
    X(PANGO, gboolean, pango_layout_is_ellipsized, (PangoLayout* layout)) \
    X(PANGO, int, pango_layout_get_unknown_glyphs_count, (PangoLayout* layout)) \
    X(PANGO, PangoLayoutIter*, pango_layout_get_iter, (PangoLayout* layout)) \
    X(PANGO, void, pango_layout_iter_free, (PangoLayoutIter* iter)) \
    X(PANGO, gboolean, pango_layout_iter_next_run, (PangoLayoutIter* iter)) \
    X(PANGO, gboolean, pango_layout_iter_next_line, (PangoLayoutIter* iter)) \
    X(PANGO, PangoLayoutRun*, pango_layout_iter_get_run_readonly, (PangoLayoutIter* iter)) \
    X(PANGO, void, pango_layout_iter_get_line_yrange, (PangoLayoutIter* iter, int* y0, int* y1)) \
    X(PANGO, gboolean, pango_layout_iter_next_cluster, (PangoLayoutIter* iter)) \
    X(PANGO, int, pango_layout_iter_get_index, (PangoLayoutIter* iter)) \
    X(PANGO, void, pango_layout_iter_get_cluster_extents, (PangoLayoutIter* iter, PangoRectangle* ink, PangoRectangle* logical)) \
    X(PANGO, PangoLayoutLine*, pango_layout_iter_get_line_readonly, (PangoLayoutIter* iter)) \
    X(PANGOFT2, void, pango_fc_font_map_set_config, (PangoFcFontMap* fcfontmap, FcConfig* fcconfig)) \
    X(PANGOCAIRO, PangoFontMap*, pango_cairo_font_map_new_for_font_type, (cairo_font_type_t fonttype)) \
    X(PANGOCAIRO, void, pango_cairo_font_map_set_resolution, (PangoCairoFontMap* fontmap, double dpi)) \
    X(PANGOCAIRO, void, pango_cairo_context_set_font_options, (PangoContext* context, const cairo_font_options_t* options)) \
    X(PANGOCAIRO, void, pango_cairo_context_set_resolution, (PangoContext* context, double dpi)) \
    X(PANGOCAIRO, void, pango_cairo_show_layout, (cairo_t* cr, PangoLayout* layout)) \
    X(PANGOCAIRO, void, pango_cairo_layout_path, (cairo_t* cr, PangoLayout* layout))

#define SLICEVID_TEXT_POINTER(library, result, name, parameters) extern result (*p_##name) parameters;
SLICEVID_TEXT_FUNCTIONS(SLICEVID_TEXT_POINTER)
#undef SLICEVID_TEXT_POINTER

#endif
