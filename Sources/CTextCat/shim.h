// libexttextcat (Debian: libexttextcat-dev, fingerprints in libexttextcat-data under
// /usr/share/libexttextcat): N-gram language guessing, wrapped by Text/TextCat.swift only.
#include <textcat.h>
