// Little CMS 2's header, plus the pixel-format constants Swift cannot import (they are macros
// built from other macros).
#ifndef SLICEVID_CLCMS2_SHIM_H
#define SLICEVID_CLCMS2_SHIM_H

#include <lcms2.h>

/// TYPE_RGBA_8: packed R, G, B, A bytes.
static inline cmsUInt32Number clcms2_type_rgba_8(void) { return TYPE_RGBA_8; }
/// TYPE_RGBA_16_PLANAR: planes of 16-bit R, G, B, A, one after another.
static inline cmsUInt32Number clcms2_type_rgba_16_planar(void) { return TYPE_RGBA_16_PLANAR; }
/// TYPE_RGB_16_PLANAR: planes of 16-bit R, G, B.
static inline cmsUInt32Number clcms2_type_rgb_16_planar(void) { return TYPE_RGB_16_PLANAR; }
/// TYPE_RGB_8 and TYPE_RGB_16: packed R, G, B samples.
static inline cmsUInt32Number clcms2_type_rgb_8(void) { return TYPE_RGB_8; }
static inline cmsUInt32Number clcms2_type_rgb_16(void) { return TYPE_RGB_16; }
/// TYPE_GRAY_8 and TYPE_GRAY_16: one grey sample.
static inline cmsUInt32Number clcms2_type_gray_8(void) { return TYPE_GRAY_8; }
static inline cmsUInt32Number clcms2_type_gray_16(void) { return TYPE_GRAY_16; }
/// TYPE_RGB_DBL: R, G, B as doubles 0…1 (the tests' exact reference conversions).
static inline cmsUInt32Number clcms2_type_rgb_dbl(void) { return TYPE_RGB_DBL; }
/// TYPE_Lab_DBL: CIE L*a*b* as doubles (what colour differences are measured in).
static inline cmsUInt32Number clcms2_type_lab_dbl(void) { return TYPE_Lab_DBL; }

#endif
