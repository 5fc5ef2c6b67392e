// libcurl (libcurl4-openssl-dev) for remote stills, songs, fonts and layout images, opened on
// the first URL rather than linked: libcurl and its TLS, HTTP/2 and SSH libraries would cost
// every run start-up that runs of local files should not pay. One call does one transfer with
// every bound slicevid keeps (timeouts, size cap, redirects, protocols, TLS), so Swift never
// calls curl's variadic functions. A session (one per run) keeps its connections alive between
// transfers: finished easy handles wait in a pool with their open connections, and every handle
// shares one DNS cache and one TLS session cache.
#ifndef SLICEVID_CCURL_H
#define SLICEVID_CCURL_H

#include <stdint.h>

/// Opens libcurl.so.4 and initialises it, once per process (thread-safe). Returns 1 when it
/// is there with every function slicevid calls, 0 otherwise.
int slicevid_curl_load(void);

/// Why slicevid_curl_load() said 0; empty when it said 1.
const char* slicevid_curl_error(void);

/// The connections, DNS answers and TLS sessions of one run's transfers.
struct slicevid_session;

/// A new session; NULL when out of memory. slicevid_curl_load() must have said 1.
struct slicevid_session* slicevid_session_new(void);

/// Closes the session's connections and frees it; no transfer of it may be under way.
void slicevid_session_free(struct slicevid_session* session);

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
    /// Where the body is written: a file opened for writing, or -1 to have `open_body` open
    /// one when the first body byte arrives (a 304, a failure, an empty body open none).
    int body_fd;
    /// With body_fd -1: returns a descriptor open for writing, or -1 with errno set.
    int (*open_body)(void* context);
    /// The most body bytes accepted: a larger Content-Length is refused before the body, a
    /// body that grows past it is cut off while it arrives.
    int64_t max_bytes;
    /// Milliseconds to connect (TCP and TLS).
    long connect_timeout_ms;
    /// Seconds without a single byte that end a transfer.
    long stall_seconds;
    /// Redirects followed at most.
    long max_redirects;
    /// Asked now and then during the transfer; nonzero aborts it. Also `open_body`'s context.
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
    /// The final response's Cache-Control (its lines joined by ", "), as sent; empty when
    /// absent or too long.
    char cache_control[512];
    /// The final response's Date and Expires as seconds since 1970 (-1 when absent; Expires
    /// is -2 when present but not a date, which RFC 9111 counts as already expired), and its
    /// Age in seconds (-1 when absent or not a number).
    int64_t date;
    int64_t expires;
    int64_t age;
    /// The clock (seconds since 1970) when the request was sent and when the transfer ended.
    int64_t request_time;
    int64_t response_time;
    /// Connections the transfer opened: 0 when it went over one kept alive.
    long new_connections;
};

/// Runs one transfer over `session`'s kept connections (a new session's when NULL).
/// slicevid_curl_load() must have said 1.
void slicevid_fetch(struct slicevid_session* session, const struct slicevid_fetch_request* request, struct slicevid_fetch_result* result);

#endif
