// libavfilter through dlopen: each slicevid_* function calls libavfilter's function of the same
// name, resolved once by slicevid_avfilter_load(). Nothing here runs until a run has audio.

#include "CAVFilter.h"
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#define SLICEVID_STRING(x) #x
#define SLICEVID_SONAME(major) "libavfilter.so." SLICEVID_STRING(major)

#define SLICEVID_AVFILTER_POINTER(result, name, parameters, arguments) static result (*p_##name) parameters;
SLICEVID_AVFILTER_FUNCTIONS(SLICEVID_AVFILTER_POINTER)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char failure[512];

static void load(void) {
    // The major version the headers were compiled against: its ABI is the one the calls use.
    void* library = dlopen(SLICEVID_SONAME(LIBAVFILTER_VERSION_MAJOR), RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char* why = dlerror();
        snprintf(failure, sizeof failure, "%s", why ? why : "dlopen failed");
        return;
    }
#define SLICEVID_AVFILTER_RESOLVE(result, name, parameters, arguments) \
    p_##name = (result (*) parameters)dlsym(library, #name); \
    if (!p_##name) { snprintf(failure, sizeof failure, "%s has no %s", SLICEVID_SONAME(LIBAVFILTER_VERSION_MAJOR), #name); return; }
    SLICEVID_AVFILTER_FUNCTIONS(SLICEVID_AVFILTER_RESOLVE)
#undef SLICEVID_AVFILTER_RESOLVE
    loaded = 1;
}

int slicevid_avfilter_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char* slicevid_avfilter_error(void) {
    pthread_once(&once, load);
    return failure;
}

const char* slicevid_avfilter_soname(void) { return SLICEVID_SONAME(LIBAVFILTER_VERSION_MAJOR); }

// Callers check slicevid_avfilter_load() first; the functions are only reached once it said 1.
#define SLICEVID_AVFILTER_DEFINE(result, name, parameters, arguments) \
    result slicevid_##name parameters { return p_##name arguments; }
SLICEVID_AVFILTER_FUNCTIONS(SLICEVID_AVFILTER_DEFINE)
