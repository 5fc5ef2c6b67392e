// The font set's parts, shared by text_fonts.c (which makes them) and text_layout.c.
#ifndef SLICEVID_TEXT_FONTS_H
#define SLICEVID_TEXT_FONTS_H

#include "text_functions.h"

struct slicevid_text_fonts {
    FcConfig* config;
    /// Made by slicevid_text_fonts_finish; NULL until then.
    PangoFontMap* map;
    PangoContext* context;
};

#endif
