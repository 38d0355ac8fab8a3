#include <libxml/xmlversion.h>
// Debian's libxml2 is built with ICU, so its encoding.h pulls in <unicode/ucnv.h>, whose
// UErrorCode clashes with the copy of ICU inside Foundation. studykit never touches the
// ICU-only fields (they sit at the end of xmlCharEncodingHandler, used through pointers
// only), so the header is read as if ICU were off.
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
