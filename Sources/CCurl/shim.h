// libcurl, loaded on first use.
//
// studykit does not link libcurl: linking it makes the dynamic loader open libcurl and the
// ~20 libraries behind it (gnutls, ldap, krb5, ssh2, nghttp2 …) and run their constructors at
// every start-up: ≈ 7 ms for an empty C program, ≈ 3.5 ms of the 54 ms `studykit text long.pdf`
// took, which never touches the network (benchmarks/RESULTS.md). Instead the first transfer dlopen()s libcurl.so.4 and resolves the
// handful of functions below; <curl/curl.h> is included for its types and constants only.
//
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed
// inline wrapper per argument kind.
#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

struct studykit_curl_api {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    const char *error; // why loading failed; NULL once everything resolved
};

// State lives in function-local statics: Swift's importer emits the inline functions of a
// header, not its file-scope variables.
static inline struct studykit_curl_api *studykit_curl_state(void) {
    static struct studykit_curl_api api;
    return &api;
}
static inline char *studykit_curl_error_buffer(void) {
    static char text[512];
    return text;
}
#define studykit_curl (*studykit_curl_state())
#define studykit_curl_error_text studykit_curl_error_buffer()

static inline void *studykit_curl_symbol(void *library, const char *name) {
    void *symbol = dlsym(library, name);
    if (symbol == NULL && studykit_curl.error == NULL) {
        const char *reason = dlerror();
        snprintf(studykit_curl_error_text, 512, "libcurl.so.4 lacks %s: %s", name,
                 reason ? reason : "not found");
        studykit_curl.error = studykit_curl_error_text;
    }
    return symbol;
}

static inline void studykit_curl_load_once(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(studykit_curl_error_text, 512,
                 "libcurl could not be loaded (install libcurl4): %s", reason ? reason : "libcurl.so.4 not found");
        studykit_curl.error = studykit_curl_error_text;
        return;
    }
    studykit_curl.global_init = (CURLcode (*)(long))studykit_curl_symbol(library, "curl_global_init");
    studykit_curl.easy_init = (CURL * (*)(void)) studykit_curl_symbol(library, "curl_easy_init");
    studykit_curl.easy_cleanup = (void (*)(CURL *))studykit_curl_symbol(library, "curl_easy_cleanup");
    studykit_curl.easy_perform = (CURLcode (*)(CURL *))studykit_curl_symbol(library, "curl_easy_perform");
    studykit_curl.easy_strerror = (const char *(*)(CURLcode))studykit_curl_symbol(library, "curl_easy_strerror");
    studykit_curl.easy_setopt = (CURLcode (*)(CURL *, CURLoption, ...))studykit_curl_symbol(library, "curl_easy_setopt");
    studykit_curl.easy_getinfo = (CURLcode (*)(CURL *, CURLINFO, ...))studykit_curl_symbol(library, "curl_easy_getinfo");
    studykit_curl.slist_append =
        (struct curl_slist * (*)(struct curl_slist *, const char *)) studykit_curl_symbol(library, "curl_slist_append");
    studykit_curl.slist_free_all = (void (*)(struct curl_slist *))studykit_curl_symbol(library, "curl_slist_free_all");
    if (studykit_curl.error == NULL && studykit_curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        studykit_curl.error = "libcurl's global initialisation failed";
    }
}

/// Loads and initialises libcurl once (thread-safe). NULL when ready, else why it is not;
/// every other function here may only be called after this returned NULL.
static inline const char *studykit_curl_load(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, studykit_curl_load_once);
    return studykit_curl.error;
}

static inline CURL *studykit_curl_easy_init(void) { return studykit_curl.easy_init(); }
static inline void studykit_curl_easy_cleanup(CURL *h) { studykit_curl.easy_cleanup(h); }
static inline CURLcode studykit_curl_easy_perform(CURL *h) { return studykit_curl.easy_perform(h); }
static inline const char *studykit_curl_easy_strerror(CURLcode c) { return studykit_curl.easy_strerror(c); }
static inline struct curl_slist *studykit_curl_slist_append(struct curl_slist *l, const char *s) { return studykit_curl.slist_append(l, s); }
static inline void studykit_curl_slist_free_all(struct curl_slist *l) { studykit_curl.slist_free_all(l); }

static inline CURLcode studykit_curl_setopt_long(CURL *h, CURLoption o, long v) { return studykit_curl.easy_setopt(h, o, v); }
static inline CURLcode studykit_curl_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return studykit_curl.easy_setopt(h, o, v); }
static inline CURLcode studykit_curl_setopt_string(CURL *h, CURLoption o, const char *v) { return studykit_curl.easy_setopt(h, o, v); }
static inline CURLcode studykit_curl_setopt_pointer(CURL *h, CURLoption o, void *v) { return studykit_curl.easy_setopt(h, o, v); }
static inline CURLcode studykit_curl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return studykit_curl.easy_setopt(h, o, v); }

typedef size_t (*studykit_curl_data_callback)(char *, size_t, size_t, void *);
typedef int (*studykit_curl_progress_callback)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t);

static inline CURLcode studykit_curl_setopt_data_callback(CURL *h, CURLoption o, studykit_curl_data_callback v) { return studykit_curl.easy_setopt(h, o, v); }
static inline CURLcode studykit_curl_setopt_progress_callback(CURL *h, studykit_curl_progress_callback v) { return studykit_curl.easy_setopt(h, CURLOPT_XFERINFOFUNCTION, v); }

static inline long studykit_curl_response_code(CURL *h) { long code = 0; studykit_curl.easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code); return code; }
static inline long studykit_curl_redirect_count(CURL *h) { long n = 0; studykit_curl.easy_getinfo(h, CURLINFO_REDIRECT_COUNT, &n); return n; }
static inline const char *studykit_curl_effective_url(CURL *h) { char *u = NULL; studykit_curl.easy_getinfo(h, CURLINFO_EFFECTIVE_URL, &u); return u; }
static inline int studykit_curl_connected(CURL *h) { curl_off_t t = 0; studykit_curl.easy_getinfo(h, CURLINFO_CONNECT_TIME_T, &t); return t > 0; }
