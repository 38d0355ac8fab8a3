#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call:
// one typed inline wrapper per argument kind.
static inline CURLcode studykit_curl_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode studykit_curl_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode studykit_curl_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode studykit_curl_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode studykit_curl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }

typedef size_t (*studykit_curl_data_callback)(char *, size_t, size_t, void *);
typedef int (*studykit_curl_progress_callback)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t);

static inline CURLcode studykit_curl_setopt_data_callback(CURL *h, CURLoption o, studykit_curl_data_callback v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode studykit_curl_setopt_progress_callback(CURL *h, studykit_curl_progress_callback v) { return curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, v); }

static inline long studykit_curl_response_code(CURL *h) { long code = 0; curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code); return code; }
static inline long studykit_curl_redirect_count(CURL *h) { long n = 0; curl_easy_getinfo(h, CURLINFO_REDIRECT_COUNT, &n); return n; }
static inline const char *studykit_curl_effective_url(CURL *h) { char *u = NULL; curl_easy_getinfo(h, CURLINFO_EFFECTIVE_URL, &u); return u; }
static inline int studykit_curl_connected(CURL *h) { curl_off_t t = 0; curl_easy_getinfo(h, CURLINFO_CONNECT_TIME_T, &t); return t > 0; }
