/* The floor for slicevid's start-up, for bench.py: a program that links the libraries slicevid
 * links (FFmpeg's, lcms2; libavfilter and libheif are opened only when a run needs them), so the
 * dynamic loader maps and relocates the same ones, and exits. */
#include <lcms2.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libswscale/swscale.h>

int main(void) {
    /* One call into each library keeps the linker from dropping it. */
    return (avformat_version() && avcodec_version() && swscale_version() && avutil_version() &&
            cmsGetEncodedCMMversion()) ? 0 : 1;
}
