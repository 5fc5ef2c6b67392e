// See include/CPlatform.h.

#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include "CPlatform.h"

int cplatform_rename_noreplace(const char *from, const char *to) {
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
}

int cplatform_renameat_noreplace(int folder, const char *from, const char *to) {
    return renameat2(folder, from, folder, to, RENAME_NOREPLACE);
}

int cplatform_open_folder(const char *path) {
    return open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
}
