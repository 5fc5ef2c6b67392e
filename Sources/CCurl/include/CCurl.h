// libcurl (libcurl4-openssl-dev) for remote stills, songs, fonts and layout images, opened on
// the first URL rather than linked: libcurl and its TLS, HTTP/2 and SSH libraries would cost
// every run start-up that runs of local files should not pay. One call does one transfer with
// every bound slicevid keeps (timeouts, size cap, redirects, protocols, TLS), so Swift never
// calls curl's variadic functions.
#ifndef SLICEVID_CCURL_H
#define SLICEVID_CCURL_H

#include <stdint.h>

/// Opens libcurl.so.4 and initialises it, once per process (thread-safe). Returns 1 when it
/// is there with every function slicevid calls, 0 otherwise.
int slicevid_curl_load(void);

/// Why slicevid_curl_load() said 0; empty when it said 1.
const char* slicevid_curl_error(void);

/// One transfer: what to fetch and the bounds it is held to.
struct slicevid_fetch_request {
    /// The URL, http or https only (curl refuses the rest, also after a redirect).
    const char* url;
    /// The User-Agent header.
    const char* user_agent;
    /// A CA bundle to verify servers against instead of the system's; NULL for the system's.
    const char* ca_file;
    /// The validators of the copy held, for a conditional request; NULL for none.
    const char* if_none_match;
    const char* if_modified_since;
    /// Where the body is written (a file opened for writing).
    int body_fd;
    /// The most body bytes accepted: a larger Content-Length is refused before the body, a
    /// body that grows past it is cut off while it arrives.
    int64_t max_bytes;
    /// Milliseconds to connect (TCP and TLS).
    long connect_timeout_ms;
    /// Seconds without a single byte that end a transfer.
    long stall_seconds;
    /// Redirects followed at most.
    long max_redirects;
    /// Asked now and then during the transfer; nonzero aborts it.
    int (*stop)(void* context);
    void* stop_context;
};

/// What one transfer came to.
struct slicevid_fetch_result {
    /// CURLcode: 0 when a response was received (whatever its status).
    int curl_code;
    /// The last response's HTTP status; 0 when none was received.
    long status;
    /// Body bytes written to body_fd.
    int64_t bytes;
    /// 1 when the body (or its Content-Length) was over max_bytes.
    int too_large;
    /// 1 when writing body_fd failed (errno in write_errno).
    int write_failed;
    int write_errno;
    /// Seconds the server's Retry-After asks for; -1 when it sent none.
    long retry_after;
    /// The final response's ETag and Last-Modified, as sent; empty when absent or too long.
    char etag[256];
    char last_modified[128];
    /// curl's own words for curl_code (its error buffer, else curl_easy_strerror).
    char message[256];
};

/// Runs one transfer. slicevid_curl_load() must have said 1.
void slicevid_fetch(const struct slicevid_fetch_request* request, struct slicevid_fetch_result* result);

#endif
