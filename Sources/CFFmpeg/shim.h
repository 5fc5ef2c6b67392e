// FFmpeg's public headers and zlib's, plus inline functions for the macros Swift cannot import.
// libavfilter's headers give its types and constants only: it is not linked, its functions are
// called through CAVFilter's slicevid_* twins once it is opened.
#ifndef SLICEVID_CFFMPEG_SHIM_H
#define SLICEVID_CFFMPEG_SHIM_H

#include <errno.h>
#include <libavcodec/avcodec.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/crc.h>
#include <libavutil/csp.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/sha.h>
#include <libswscale/swscale.h>
#include <zlib.h>

/// AVERROR(EAGAIN): "output not ready, feed more input".
static inline int cffmpeg_error_eagain(void) { return AVERROR(EAGAIN); }
/// AVERROR_EOF: "the stream is drained".
static inline int cffmpeg_error_eof(void) { return AVERROR_EOF; }
/// AVERROR_EXIT: "stopped on request" (what an I/O or interrupt callback returns to abort).
static inline int cffmpeg_error_exit(void) { return AVERROR_EXIT; }
/// AVERROR(e) for any errno value.
static inline int cffmpeg_error_from_errno(int e) { return AVERROR(e); }
/// AVERROR_INVALIDDATA: "invalid data found when processing input".
static inline int cffmpeg_error_invaliddata(void) { return AVERROR_INVALIDDATA; }
/// AVERROR_STREAM_NOT_FOUND: "no stream of the asked kind".
static inline int cffmpeg_error_stream_not_found(void) { return AVERROR_STREAM_NOT_FOUND; }
/// AVERROR_DECODER_NOT_FOUND: "this libavcodec has no decoder for the stream".
static inline int cffmpeg_error_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
/// AV_NOPTS_VALUE: "no timestamp".
static inline int64_t cffmpeg_nopts_value(void) { return AV_NOPTS_VALUE; }
/// inflateInit(s): zlib's initialiser is a macro that passes its version and struct size.
static inline int cffmpeg_inflate_init(z_stream *stream) { return inflateInit(stream); }
/// inflateInit2(s, 15 + 16): a gzip stream (an SVGZ), its header and trailer checked.
static inline int cffmpeg_inflate_init_gzip(z_stream *stream) { return inflateInit2(stream, 15 + 16); }

#endif
