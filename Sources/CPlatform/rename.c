// See include/CPlatform.h.

#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include "CPlatform.h"

int cplatform_rename_noreplace(const char *from, const char *to) {
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
}
