/* The floor for slicevid's start-up, for bench.py: a program that links the FFmpeg libraries
 * slicevid links (so the dynamic loader maps and relocates the same ones) and exits. */
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libswscale/swscale.h>

int main(void) {
    /* One call into each library keeps the linker from dropping it. */
    return (avformat_version() && avcodec_version() && swscale_version() && avutil_version()) ? 0 : 1;
}
