// libheif through dlopen: each slicevid_heif_* function calls libheif's function of the same
// name, resolved once by slicevid_heif_load(). Nothing here runs until a HEIF is met.

#include "CHeif.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#define SLICEVID_HEIF_POINTER(result, name, parameters, arguments) static result (*p_##name) parameters;
SLICEVID_HEIF_FUNCTIONS(SLICEVID_HEIF_POINTER)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char failure[512];

static void load(void) {
    // RTLD_LOCAL: libheif's symbols stay out of the global namespace; the handle is kept for
    // the process's life (libheif's plugins are never unloaded).
    void* library = dlopen("libheif.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char* why = dlerror();
        snprintf(failure, sizeof failure, "%s", why ? why : "dlopen failed");
        return;
    }
#define SLICEVID_HEIF_RESOLVE(result, name, parameters, arguments) \
    p_##name = (result (*) parameters)dlsym(library, #name); \
    if (!p_##name) { snprintf(failure, sizeof failure, "libheif.so.1 has no %s", #name); return; }
    SLICEVID_HEIF_FUNCTIONS(SLICEVID_HEIF_RESOLVE)
#undef SLICEVID_HEIF_RESOLVE
    loaded = 1;
}

int slicevid_heif_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char* slicevid_heif_error(void) {
    pthread_once(&once, load);
    return failure;
}

// Callers check slicevid_heif_load() first; the functions are only reached once it said 1.
#define SLICEVID_HEIF_DEFINE(result, name, parameters, arguments) \
    result slicevid_##name parameters { return p_##name arguments; }
SLICEVID_HEIF_FUNCTIONS(SLICEVID_HEIF_DEFINE)
