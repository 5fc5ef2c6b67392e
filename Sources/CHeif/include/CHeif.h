// libheif's C API (HEIC and AVIF stills), opened on first use rather than linked: loading
// libheif and its HEVC decoder costs every run about 7 ms of start-up, which runs of JPEGs and
// PNGs should not pay. slicevid calls the slicevid_heif_* twins of the libheif functions it
// uses; the types and constants are libheif's own, from its header.
#ifndef SLICEVID_CHEIF_H
#define SLICEVID_CHEIF_H

#include <libheif/heif.h>

/// Opens libheif.so.1 and resolves every function below, once per process (thread-safe).
/// Returns 1 when all are there, 0 otherwise (HEIC is then not decoded).
int slicevid_heif_load(void);

/// Why slicevid_heif_load() said 0 (the dynamic loader's message); empty when it said 1.
const char* slicevid_heif_error(void);

#define SLICEVID_HEIF_FUNCTIONS(X) \
    X(struct heif_error, heif_init, (struct heif_init_params* params), (params)) \
    X(int, heif_have_decoder_for_format, (enum heif_compression_format format), (format)) \
    X(enum heif_filetype_result, heif_check_filetype, (const uint8_t* data, int len), (data, len)) \
    X(const char*, heif_get_file_mime_type, (const uint8_t* data, int len), (data, len)) \
    X(struct heif_context*, heif_context_alloc, (void), ()) \
    X(void, heif_context_free, (struct heif_context* context), (context)) \
    X(void, heif_context_set_maximum_image_size_limit, (struct heif_context* context, int side), (context, side)) \
    X(struct heif_error, heif_context_read_from_reader, \
      (struct heif_context* context, const struct heif_reader* reader, void* userdata, const struct heif_reading_options* options), \
      (context, reader, userdata, options)) \
    X(struct heif_error, heif_context_get_primary_image_handle, (struct heif_context* context, struct heif_image_handle** handle), \
      (context, handle)) \
    X(void, heif_image_handle_release, (const struct heif_image_handle* handle), (handle)) \
    X(int, heif_image_handle_get_width, (const struct heif_image_handle* handle), (handle)) \
    X(int, heif_image_handle_get_height, (const struct heif_image_handle* handle), (handle)) \
    X(int, heif_image_handle_has_alpha_channel, (const struct heif_image_handle* handle), (handle)) \
    X(int, heif_image_handle_is_premultiplied_alpha, (const struct heif_image_handle* handle), (handle)) \
    X(int, heif_image_handle_get_luma_bits_per_pixel, (const struct heif_image_handle* handle), (handle)) \
    X(struct heif_error, heif_image_handle_get_nclx_color_profile, \
      (const struct heif_image_handle* handle, struct heif_color_profile_nclx** nclx), (handle, nclx)) \
    X(void, heif_nclx_color_profile_free, (struct heif_color_profile_nclx* nclx), (nclx)) \
    X(size_t, heif_image_handle_get_raw_color_profile_size, (const struct heif_image_handle* handle), (handle)) \
    X(struct heif_error, heif_image_handle_get_raw_color_profile, (const struct heif_image_handle* handle, void* data), \
      (handle, data)) \
    X(struct heif_decoding_options*, heif_decoding_options_alloc, (void), ()) \
    X(void, heif_decoding_options_free, (struct heif_decoding_options* options), (options)) \
    X(struct heif_error, heif_decode_image, \
      (const struct heif_image_handle* handle, struct heif_image** image, enum heif_colorspace colorspace, \
       enum heif_chroma chroma, const struct heif_decoding_options* options), \
      (handle, image, colorspace, chroma, options)) \
    X(void, heif_image_release, (const struct heif_image* image), (image)) \
    X(int, heif_image_get_decoding_warnings, \
      (struct heif_image* image, int first, struct heif_error* warnings, int count), (image, first, warnings, count)) \
    X(const uint8_t*, heif_image_get_plane_readonly, (const struct heif_image* image, enum heif_channel channel, int* stride), \
      (image, channel, stride)) \
    X(int, heif_image_get_width, (const struct heif_image* image, enum heif_channel channel), (image, channel)) \
    X(int, heif_image_get_height, (const struct heif_image* image, enum heif_channel channel), (image, channel)) \
    X(int, heif_image_get_bits_per_pixel_range, (const struct heif_image* image, enum heif_channel channel), (image, channel))

#define SLICEVID_HEIF_DECLARE(result, name, parameters, arguments) result slicevid_##name parameters;
SLICEVID_HEIF_FUNCTIONS(SLICEVID_HEIF_DECLARE)
#undef SLICEVID_HEIF_DECLARE

#endif
