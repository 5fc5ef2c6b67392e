// libheif's C API (HEIC and AVIF stills). Debian installs the header in the multiarch folder,
// which pkg-config's cflags add to the search path.
#ifndef SLICEVID_CHEIF_SHIM_H
#define SLICEVID_CHEIF_SHIM_H

#include <libheif/heif.h>

#endif
