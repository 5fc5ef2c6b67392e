// libavfilter's C API (the audio bed: trimming, fades, loudness), opened on first use rather
// than linked: libavfilter brings some thirty libraries of its own (speech synthesis, Vulkan,
// OpenCL, ZeroMQ, …), which doubled the start-up of every run, video-only runs included.
// slicevid calls the slicevid_* twins of the functions it uses. The types are only named here:
// Swift sees them, and libavfilter's constants, through CFFmpeg, whose shim includes
// libavfilter's headers (without linking the library). Including them here too would make
// them this module's, hiding libavutil's declarations from files that import CFFmpeg alone.
#ifndef SLICEVID_CAVFILTER_H
#define SLICEVID_CAVFILTER_H

struct AVFilter;
struct AVFilterContext;
struct AVFilterGraph;
struct AVFilterInOut;
struct AVFrame;

/// Opens libavfilter (the major version these headers are, libavfilter.so.8 on Debian 12) and
/// resolves every function below, once per process (thread-safe). Returns 1 when all are
/// there, 0 otherwise; then slicevid_avfilter_error() says why.
int slicevid_avfilter_load(void);

/// Why slicevid_avfilter_load() returned 0 (dlopen's or dlsym's words), or "" after success.
const char* slicevid_avfilter_error(void);

/// The library's file name, for messages: "libavfilter.so.8".
const char* slicevid_avfilter_soname(void);

#define SLICEVID_AVFILTER_FUNCTIONS(X) \
    X(struct AVFilterGraph*, avfilter_graph_alloc, (void), ()) \
    X(void, avfilter_graph_free, (struct AVFilterGraph** graph), (graph)) \
    X(const struct AVFilter*, avfilter_get_by_name, (const char* name), (name)) \
    X(int, avfilter_graph_create_filter, \
      (struct AVFilterContext** context, const struct AVFilter* filter, const char* name, const char* arguments, void* opaque, \
       struct AVFilterGraph* graph), \
      (context, filter, name, arguments, opaque, graph)) \
    X(struct AVFilterInOut*, avfilter_inout_alloc, (void), ()) \
    X(void, avfilter_inout_free, (struct AVFilterInOut** inout), (inout)) \
    X(int, avfilter_graph_parse_ptr, \
      (struct AVFilterGraph* graph, const char* filters, struct AVFilterInOut** inputs, struct AVFilterInOut** outputs, void* log), \
      (graph, filters, inputs, outputs, log)) \
    X(int, avfilter_graph_config, (struct AVFilterGraph* graph, void* log), (graph, log)) \
    X(void, av_buffersink_set_frame_size, (struct AVFilterContext* context, unsigned size), (context, size)) \
    X(int, av_buffersrc_add_frame_flags, (struct AVFilterContext* context, struct AVFrame* frame, int flags), (context, frame, flags)) \
    X(int, av_buffersink_get_frame, (struct AVFilterContext* context, struct AVFrame* frame), (context, frame))

#define SLICEVID_AVFILTER_DECLARE(result, name, parameters, arguments) result slicevid_##name parameters;
SLICEVID_AVFILTER_FUNCTIONS(SLICEVID_AVFILTER_DECLARE)
#undef SLICEVID_AVFILTER_DECLARE

#endif
