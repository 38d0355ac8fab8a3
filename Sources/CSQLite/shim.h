#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift cannot import; expose it as a function.
static inline sqlite3_destructor_type studykit_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
