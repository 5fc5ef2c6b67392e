// Opens Pango, PangoCairo, Cairo, fontconfig, FreeType and GObject with dlopen and resolves the functions
// text_functions.h lists, once, on the first text layer. Nothing here runs before that.
// (libavcodec's SVG decoder, librsvg, links most of them already; opening them again costs a
// look-up, and slicevid itself never names them at link time.)

#include "CText.h"
#include "text_functions.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#define SLICEVID_TEXT_DEFINE(library, result, name, parameters) result (*p_##name) parameters;
SLICEVID_TEXT_FUNCTIONS(SLICEVID_TEXT_DEFINE)
#undef SLICEVID_TEXT_DEFINE

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char failure[512];

static void load(void) {
    static const char* const files[] = {
#define SLICEVID_TEXT_LIBRARY_FILE(name, file) file,
        SLICEVID_TEXT_LIBRARIES(SLICEVID_TEXT_LIBRARY_FILE)
#undef SLICEVID_TEXT_LIBRARY_FILE
    };
    void* libraries[SLICEVID_TEXT_LIBRARY_COUNT];
    for (int i = 0; i < SLICEVID_TEXT_LIBRARY_COUNT; i++) {
        // RTLD_LOCAL: their symbols stay out of the global namespace. The handles are kept for
        // the process's life: GObject types cannot be unloaded.
        libraries[i] = dlopen(files[i], RTLD_NOW | RTLD_LOCAL);
        if (!libraries[i]) {
            const char* why = dlerror();
            snprintf(failure, sizeof failure, "%s", why ? why : files[i]);
            return;
        }
    }
#define SLICEVID_TEXT_RESOLVE(library, result, name, parameters) \
    p_##name = (result (*) parameters)dlsym(libraries[SLICEVID_TEXT_##library], #name); \
    if (!p_##name) { snprintf(failure, sizeof failure, "%s has no %s", files[SLICEVID_TEXT_##library], #name); return; }
    SLICEVID_TEXT_FUNCTIONS(SLICEVID_TEXT_RESOLVE)
#undef SLICEVID_TEXT_RESOLVE
    loaded = 1;
}

int slicevid_text_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char* slicevid_text_error(void) {
    pthread_once(&once, load);
    return failure;
}
