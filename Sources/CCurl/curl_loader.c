// libcurl through dlopen, and the one transfer slicevid makes with it: a GET with timeouts,
// a size cap enforced while the body arrives, bounded redirects over http and https only, TLS
// verified (the system's CAs, or a file given), conditional headers, and the validators,
// freshness headers and Retry-After of the final response kept. A session pools finished easy
// handles, so the next transfer to a host goes over the connection the last one left open
// (curl_easy_reset keeps a handle's live connections), and shares one DNS and TLS session
// cache among all of them (a curl share, its locks pthread mutexes).

#include "CCurl.h"
#include <curl/curl.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

static CURLcode (*p_global_init)(long flags);
static CURL* (*p_easy_init)(void);
static CURLcode (*p_easy_setopt)(CURL* curl, CURLoption option, ...);
static CURLcode (*p_easy_perform)(CURL* curl);
static CURLcode (*p_easy_getinfo)(CURL* curl, CURLINFO info, ...);
static void (*p_easy_cleanup)(CURL* curl);
static const char* (*p_easy_strerror)(CURLcode code);
static struct curl_slist* (*p_slist_append)(struct curl_slist* list, const char* text);
static void (*p_slist_free_all)(struct curl_slist* list);
static void (*p_easy_reset)(CURL* curl);
static CURLSH* (*p_share_init)(void);
static CURLSHcode (*p_share_setopt)(CURLSH* share, CURLSHoption option, ...);
static CURLSHcode (*p_share_cleanup)(CURLSH* share);
static time_t (*p_getdate)(const char* text, const time_t* unused);

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char failure[512];

static void load(void) {
    void* library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char* why = dlerror();
        snprintf(failure, sizeof failure, "%s", why ? why : "dlopen failed");
        return;
    }
#define RESOLVE(pointer, name) \
    *(void**)(&pointer) = dlsym(library, name); \
    if (!pointer) { snprintf(failure, sizeof failure, "libcurl.so.4 has no %s", name); return; }
    RESOLVE(p_global_init, "curl_global_init")
    RESOLVE(p_easy_init, "curl_easy_init")
    RESOLVE(p_easy_setopt, "curl_easy_setopt")
    RESOLVE(p_easy_perform, "curl_easy_perform")
    RESOLVE(p_easy_getinfo, "curl_easy_getinfo")
    RESOLVE(p_easy_cleanup, "curl_easy_cleanup")
    RESOLVE(p_easy_strerror, "curl_easy_strerror")
    RESOLVE(p_slist_append, "curl_slist_append")
    RESOLVE(p_slist_free_all, "curl_slist_free_all")
    RESOLVE(p_easy_reset, "curl_easy_reset")
    RESOLVE(p_share_init, "curl_share_init")
    RESOLVE(p_share_setopt, "curl_share_setopt")
    RESOLVE(p_share_cleanup, "curl_share_cleanup")
    RESOLVE(p_getdate, "curl_getdate")
#undef RESOLVE
    // Once, before any thread makes a handle: curl_global_init is not thread-safe on every build.
    CURLcode code = p_global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) {
        snprintf(failure, sizeof failure, "curl_global_init failed: %s", p_easy_strerror(code));
        return;
    }
    loaded = 1;
}

int slicevid_curl_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char* slicevid_curl_error(void) {
    pthread_once(&once, load);
    return failure;
}

/// Finished handles kept for their connections, at most this many (transfers at once are
/// bounded per host; a run with more hosts than this opens a few connections again).
#define POOLED 16

struct slicevid_session {
    CURLSH* share;
    /// One lock per kind of data a share may lock (curl_lock_data).
    pthread_mutex_t locks[CURL_LOCK_DATA_LAST];
    pthread_mutex_t pool_lock;
    CURL* pool[POOLED];
    int pooled;
};

static void share_lock(CURL* curl, curl_lock_data data, curl_lock_access access, void* context) {
    (void)curl; (void)access;
    struct slicevid_session* session = context;
    pthread_mutex_lock(&session->locks[data < CURL_LOCK_DATA_LAST ? data : 0]);
}

static void share_unlock(CURL* curl, curl_lock_data data, void* context) {
    (void)curl;
    struct slicevid_session* session = context;
    pthread_mutex_unlock(&session->locks[data < CURL_LOCK_DATA_LAST ? data : 0]);
}

struct slicevid_session* slicevid_session_new(void) {
    struct slicevid_session* session = calloc(1, sizeof *session);
    if (!session) return NULL;
    for (int i = 0; i < CURL_LOCK_DATA_LAST; i++) pthread_mutex_init(&session->locks[i], NULL);
    pthread_mutex_init(&session->pool_lock, NULL);
    session->share = p_share_init();
    if (session->share) {
        p_share_setopt(session->share, CURLSHOPT_LOCKFUNC, share_lock);
        p_share_setopt(session->share, CURLSHOPT_UNLOCKFUNC, share_unlock);
        p_share_setopt(session->share, CURLSHOPT_USERDATA, session);
        p_share_setopt(session->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
        p_share_setopt(session->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
    }
    return session;
}

void slicevid_session_free(struct slicevid_session* session) {
    if (!session) return;
    // The handles first: a share is freed only once no handle uses it.
    for (int i = 0; i < session->pooled; i++) p_easy_cleanup(session->pool[i]);
    if (session->share) p_share_cleanup(session->share);
    for (int i = 0; i < CURL_LOCK_DATA_LAST; i++) pthread_mutex_destroy(&session->locks[i]);
    pthread_mutex_destroy(&session->pool_lock);
    free(session);
}

/// A handle for one transfer: the pool's newest (its connections kept), else a new one.
static CURL* take_handle(struct slicevid_session* session) {
    CURL* curl = NULL;
    pthread_mutex_lock(&session->pool_lock);
    if (session->pooled > 0) curl = session->pool[--session->pooled];
    pthread_mutex_unlock(&session->pool_lock);
    if (curl) {
        p_easy_reset(curl);
        return curl;
    }
    curl = p_easy_init();
    return curl;
}

/// Back to the pool with its connections, or closed when the pool is full.
static void give_back(struct slicevid_session* session, CURL* curl) {
    pthread_mutex_lock(&session->pool_lock);
    if (session->pooled < POOLED) {
        session->pool[session->pooled++] = curl;
        curl = NULL;
    }
    pthread_mutex_unlock(&session->pool_lock);
    if (curl) p_easy_cleanup(curl);
}

struct transfer {
    const struct slicevid_fetch_request* request;
    struct slicevid_fetch_result* result;
    /// Set when the final response's Cache-Control did not fit.
    int cache_control_overflow;
    /// Where the body goes: request->body_fd, or what open_body gave on the first byte.
    int body_fd;
};

static size_t on_body(char* data, size_t size, size_t count, void* context) {
    struct transfer* transfer = context;
    size_t length = size * count;
    if (transfer->result->bytes + (int64_t)length > transfer->request->max_bytes) {
        transfer->result->too_large = 1;
        return 0; // CURLE_WRITE_ERROR: the cap holds while the body arrives
    }
    if (length > 0 && transfer->body_fd < 0) {
        transfer->body_fd = transfer->request->open_body ? transfer->request->open_body(transfer->request->stop_context) : -1;
        if (transfer->body_fd < 0) {
            transfer->result->write_failed = 1;
            transfer->result->write_errno = errno ? errno : EBADF;
            return 0;
        }
    }
    size_t done = 0;
    while (done < length) {
        ssize_t wrote = write(transfer->body_fd, data + done, length - done);
        if (wrote < 0 && errno == EINTR) continue;
        if (wrote <= 0) {
            transfer->result->write_failed = 1;
            transfer->result->write_errno = wrote < 0 ? errno : ENOSPC;
            return 0;
        }
        done += (size_t)wrote;
    }
    transfer->result->bytes += (int64_t)length;
    return length;
}

/// Copies a header's value (after "Name:"), trimmed, into `into` when it fits; else empties it.
static void keep_value(const char* line, size_t length, size_t name, char* into, size_t room) {
    size_t start = name, end = length;
    while (start < end && (line[start] == ' ' || line[start] == '\t')) start++;
    while (end > start && (line[end - 1] == '\r' || line[end - 1] == '\n' || line[end - 1] == ' ' || line[end - 1] == '\t')) end--;
    if (end - start >= room) { into[0] = 0; return; }
    memcpy(into, line + start, end - start);
    into[end - start] = 0;
}

static size_t on_header(char* line, size_t size, size_t count, void* context) {
    struct transfer* transfer = context;
    size_t length = size * count;
    // Each response (a redirect's, then the next) starts with its status line: only the final
    // response's validators count.
    struct slicevid_fetch_result* result = transfer->result;
    if (length >= 5 && strncmp(line, "HTTP/", 5) == 0) {
        result->etag[0] = 0;
        result->last_modified[0] = 0;
        result->cache_control[0] = 0;
        transfer->cache_control_overflow = 0;
        result->date = -1;
        result->expires = -1;
        result->age = -1;
    } else if (length > 14 && strncasecmp(line, "Cache-Control:", 14) == 0) {
        // Several lines are one list (RFC 9110 §5.3): joined with commas. A list longer than
        // the room is not guessed at: it reads as no-cache, so the next run asks again.
        if (transfer->cache_control_overflow) return length;
        char value[sizeof result->cache_control];
        keep_value(line, length, 14, value, sizeof value);
        size_t held = strlen(result->cache_control), more = strlen(value);
        if ((more == 0 && length > 14 + sizeof value) || held + more + 3 > sizeof result->cache_control) {
            transfer->cache_control_overflow = 1;
            snprintf(result->cache_control, sizeof result->cache_control, "no-cache");
        } else if (more > 0) {
            if (held > 0) strcat(result->cache_control, ", ");
            strcat(result->cache_control, value);
        }
    } else if (length > 5 && strncasecmp(line, "Date:", 5) == 0) {
        char value[128];
        keep_value(line, length, 5, value, sizeof value);
        time_t when = value[0] ? p_getdate(value, NULL) : -1;
        result->date = when >= 0 ? (int64_t)when : -1;
    } else if (length > 8 && strncasecmp(line, "Expires:", 8) == 0) {
        char value[128];
        keep_value(line, length, 8, value, sizeof value);
        time_t when = value[0] ? p_getdate(value, NULL) : -1;
        result->expires = when >= 0 ? (int64_t)when : -2;
    } else if (length > 4 && strncasecmp(line, "Age:", 4) == 0) {
        char value[32];
        keep_value(line, length, 4, value, sizeof value);
        char* end = NULL;
        errno = 0;
        long long age = value[0] >= '0' && value[0] <= '9' ? strtoll(value, &end, 10) : -1;
        result->age = (age >= 0 && errno == 0 && end && *end == 0) ? (int64_t)age : -1;
    } else if (length > 5 && strncasecmp(line, "ETag:", 5) == 0) {
        keep_value(line, length, 5, transfer->result->etag, sizeof transfer->result->etag);
    } else if (length > 14 && strncasecmp(line, "Last-Modified:", 14) == 0) {
        keep_value(line, length, 14, transfer->result->last_modified, sizeof transfer->result->last_modified);
    }
    return length;
}

static int on_progress(void* context, curl_off_t total, curl_off_t now, curl_off_t up_total, curl_off_t up_now) {
    (void)total; (void)now; (void)up_total; (void)up_now;
    struct transfer* transfer = context;
    return transfer->request->stop && transfer->request->stop(transfer->request->stop_context) ? 1 : 0;
}

void slicevid_fetch(struct slicevid_session* session, const struct slicevid_fetch_request* request, struct slicevid_fetch_result* result) {
    memset(result, 0, sizeof *result);
    result->retry_after = -1;
    result->date = result->expires = result->age = -1;
    struct slicevid_session* own = NULL;
    if (!session) session = own = slicevid_session_new();
    CURL* curl = session ? take_handle(session) : NULL;
    if (!curl) {
        slicevid_session_free(own);
        result->curl_code = CURLE_OUT_OF_MEMORY;
        snprintf(result->message, sizeof result->message, "%s", p_easy_strerror(CURLE_OUT_OF_MEMORY));
        return;
    }
    char errors[CURL_ERROR_SIZE] = {0};
    struct transfer transfer = {request, result, 0, request->body_fd};
    struct curl_slist* headers = NULL;
    char line[512];
    if (request->if_none_match && request->if_none_match[0]) {
        snprintf(line, sizeof line, "If-None-Match: %s", request->if_none_match);
        headers = p_slist_append(headers, line);
    }
    if (request->if_modified_since && request->if_modified_since[0]) {
        snprintf(line, sizeof line, "If-Modified-Since: %s", request->if_modified_since);
        headers = p_slist_append(headers, line);
    }
    if (session->share) p_easy_setopt(curl, CURLOPT_SHARE, session->share);
    p_easy_setopt(curl, CURLOPT_URL, request->url);
    p_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    p_easy_setopt(curl, CURLOPT_ERRORBUFFER, errors);
    p_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    p_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    p_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
    p_easy_setopt(curl, CURLOPT_MAXREDIRS, request->max_redirects);
    p_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, request->connect_timeout_ms);
    p_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
    p_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, request->stall_seconds);
    p_easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)request->max_bytes);
    p_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
    p_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);
    if (request->ca_file) p_easy_setopt(curl, CURLOPT_CAINFO, request->ca_file);
    if (request->user_agent) p_easy_setopt(curl, CURLOPT_USERAGENT, request->user_agent);
    if (headers) p_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    p_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    p_easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
    p_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
    p_easy_setopt(curl, CURLOPT_HEADERDATA, &transfer);
    p_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
    p_easy_setopt(curl, CURLOPT_XFERINFODATA, &transfer);
    p_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);

    result->request_time = (int64_t)time(NULL);
    CURLcode code = p_easy_perform(curl);
    result->response_time = (int64_t)time(NULL);
    result->curl_code = (int)code;
    long connects = 0;
    if (p_easy_getinfo(curl, CURLINFO_NUM_CONNECTS, &connects) == CURLE_OK) result->new_connections = connects;
    long status = 0;
    if (p_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status) == CURLE_OK) result->status = status;
    curl_off_t retry = -1;
    if (p_easy_getinfo(curl, CURLINFO_RETRY_AFTER, &retry) == CURLE_OK && retry > 0) result->retry_after = (long)retry;
    if (code == CURLE_FILESIZE_EXCEEDED) result->too_large = 1;
    if (code != CURLE_OK) {
        snprintf(result->message, sizeof result->message, "%s", errors[0] ? errors : p_easy_strerror(code));
    }
    p_slist_free_all(headers);
    // The handle keeps its connection for the next transfer unless this one failed (a
    // connection curl doubts is closed by curl itself; a handle after an error is not kept).
    if (code == CURLE_OK) {
        give_back(session, curl);
    } else {
        p_easy_cleanup(curl);
    }
    slicevid_session_free(own);
}
