// Records are evidence, not authority: a sidecar slicevid reads back licenses replacing or
// deleting a file only when nobody but the running user could have written it, the rule
// OpenSSH's StrictModes applies to keys. The one place that rule is kept; every licence a
// record gives (replacing outputs, deleting a sequence's old frames, pruning orphans, the
// report page's posters, an earlier report) is judged here.

import Glibc

/// Whether a record, and a file it licenses, could only be the running user's.
package enum RecordAuthority {
    /// Why the record described by `record` (as `fstat` saw it once opened without following a
    /// link) in the folder described by `folder` licenses nothing, as a clause about the
    /// record (`it is owned by uid 65534, not this user (uid 0)`); nil when it may license what
    /// it records. A record licenses only when it is a regular file owned by the running user
    /// that only its owner may write, in a folder no other user can write to: owned by the
    /// running user (or root) and writable by its owner alone. A sticky folder that others may
    /// write (`/tmp`, mode 1777) is not safe: anyone can plant a record there.
    package static func problem(record: stat, folder: stat) -> String? {
        let user = geteuid()
        if record.st_mode & S_IFMT != S_IFREG { return "it is not a regular file" }
        if record.st_uid != user { return "it is owned by uid \(record.st_uid), not this user (uid \(user))" }
        if record.st_mode & (S_IWGRP | S_IWOTH) != 0 { return "other users may write it (mode \(mode(record)))" }
        if folder.st_uid != user && folder.st_uid != 0 { return "its folder is owned by uid \(folder.st_uid), not this user (uid \(user))" }
        if folder.st_mode & (S_IWGRP | S_IWOTH) != 0 { return "other users may write to its folder (mode \(mode(folder)))" }
        return nil
    }

    /// Why the file described by `file` (as `lstat` saw it at an output's or a record's path)
    /// is not the running user's to replace or delete on a record's word, as a clause
    /// (`is owned by uid 65534, not this user (uid 0)`); nil when it is. A record never
    /// licenses another user's file, whatever its stamps say.
    package static func problem(licensed file: stat) -> String? {
        let user = geteuid()
        return file.st_uid == user ? nil : "is owned by uid \(file.st_uid), not this user (uid \(user))"
    }

    /// The permission bits, in octal as `chmod` takes them (`1777`, `775`).
    private static func mode(_ info: stat) -> String {
        String(info.st_mode & 0o7777, radix: 8)
    }
}
