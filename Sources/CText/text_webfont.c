// WOFF and WOFF2 fonts unpacked into plain OpenType with FreeType, from memory: HarfBuzz (which
// Pango shapes with) reads only plain OpenType, so a web font handed to Pango as it is would be
// listed by fontconfig and then shaped as if it had no glyphs. The caller has checked the
// font's header and table directory against its limits, so FreeType's unpacking is bounded.

#include "CText.h"
#include "text_functions.h"
#include <stdlib.h>

uint8_t* slicevid_text_unpack_web_font(const uint8_t* data, size_t size, int index, size_t limit, size_t* length) {
    *length = 0;
    if (size > (size_t)0x7FFFFFFF) return NULL;
    FT_Library library = NULL;
    if (p_FT_Init_FreeType(&library) != 0) return NULL;
    uint8_t* result = NULL;
    FT_Face face = NULL;
    // FreeType unpacks a web font when it opens it and keeps the plain font as the face's
    // stream; table tag 0 reads that stream whole.
    if (p_FT_New_Memory_Face(library, data, (FT_Long)size, index, &face) == 0) {
        FT_ULong bytes = 0;
        if (p_FT_Load_Sfnt_Table(face, 0, 0, NULL, &bytes) == 0 && bytes > 12 && bytes <= limit) {
            result = malloc(bytes);
            if (result && p_FT_Load_Sfnt_Table(face, 0, 0, result, &bytes) == 0) {
                *length = bytes;
            } else {
                free(result);
                result = NULL;
            }
        }
        p_FT_Done_Face(face);
    }
    p_FT_Done_FreeType(library);
    return result;
}
