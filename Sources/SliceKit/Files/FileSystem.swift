// The file-system calls slicevid makes by name, each given the name's own bytes (`PathBytes`):
// a Swift String handed to a C call directly would reach the kernel as the stand-ins' UTF-8,
// another name. Every call by path goes through here; calls on descriptors need nothing.

import Glibc

/// Calls on paths, as Glibc's, taking paths as `PathBytes` Strings. Each returns what its C
/// call returns and leaves `errno` as the call set it.
package enum FileSystem {
    @discardableResult
    package static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        PathBytes.withCString(path) { Glibc.open($0, flags, mode) }
    }

    @discardableResult
    package static func openat(_ folder: Int32, _ name: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        PathBytes.withCString(name) { Glibc.openat(folder, $0, flags, mode) }
    }

    @discardableResult
    package static func stat(_ path: String, _ info: inout Glibc.stat) -> Int32 {
        PathBytes.withCString(path) { statByName($0, &info) }
    }

    @discardableResult
    package static func lstat(_ path: String, _ info: inout Glibc.stat) -> Int32 {
        PathBytes.withCString(path) { Glibc.lstat($0, &info) }
    }

    @discardableResult
    package static func fstatat(_ folder: Int32, _ name: String, _ info: inout Glibc.stat, _ flags: Int32) -> Int32 {
        PathBytes.withCString(name) { Glibc.fstatat(folder, $0, &info, flags) }
    }

    @discardableResult
    package static func access(_ path: String, _ mode: Int32) -> Int32 {
        PathBytes.withCString(path) { Glibc.access($0, mode) }
    }

    @discardableResult
    package static func unlink(_ path: String) -> Int32 {
        PathBytes.withCString(path) { Glibc.unlink($0) }
    }

    @discardableResult
    package static func unlinkat(_ folder: Int32, _ name: String, _ flags: Int32) -> Int32 {
        PathBytes.withCString(name) { Glibc.unlinkat(folder, $0, flags) }
    }

    @discardableResult
    package static func rename(_ from: String, _ to: String) -> Int32 {
        PathBytes.withCString(from) { from in PathBytes.withCString(to) { Glibc.rename(from, $0) } }
    }

    @discardableResult
    package static func renameat(_ fromFolder: Int32, _ from: String, _ toFolder: Int32, _ to: String) -> Int32 {
        PathBytes.withCString(from) { from in PathBytes.withCString(to) { Glibc.renameat(fromFolder, from, toFolder, $0) } }
    }

    @discardableResult
    package static func linkat(_ fromFolder: Int32, _ from: String, _ toFolder: Int32, _ to: String, _ flags: Int32) -> Int32 {
        PathBytes.withCString(from) { from in PathBytes.withCString(to) { Glibc.linkat(fromFolder, from, toFolder, $0, flags) } }
    }

    @discardableResult
    package static func mkdir(_ path: String, _ mode: mode_t) -> Int32 {
        PathBytes.withCString(path) { Glibc.mkdir($0, mode) }
    }

    @discardableResult
    package static func mkdirat(_ folder: Int32, _ name: String, _ mode: mode_t) -> Int32 {
        PathBytes.withCString(name) { Glibc.mkdirat(folder, $0, mode) }
    }

    @discardableResult
    package static func rmdir(_ path: String) -> Int32 {
        PathBytes.withCString(path) { Glibc.rmdir($0) }
    }

    /// The path with every link and `..` resolved (realpath(3)); nil when that fails, with
    /// `errno` saying why.
    package static func realpath(_ path: String) -> String? {
        guard let resolved = PathBytes.withCString(path, { Glibc.realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return PathBytes.text(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
    }

    /// The names in a folder, `.` and `..` left out; nil when it cannot be listed.
    package static func names(inFolder path: String) -> [String]? {
        guard let folder = PathBytes.withCString(path, { opendir($0) }) else { return nil }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                PathBytes.text(raw.prefix(while: { $0 != 0 }))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Removes `path`: a file or a link as itself, a folder with everything in it (links inside
    /// are removed, never followed). Best effort, as `FileManager.removeItem` is.
    package static func remove(_ path: String) {
        var info = Glibc.stat()
        guard lstat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            for name in names(inFolder: path) ?? [] { remove(path + "/" + name) }
            _ = rmdir(path)
        } else {
            _ = unlink(path)
        }
    }

    /// The process's working folder (getcwd(3)); nil when it cannot be named.
    package static func currentFolder() -> String? {
        guard let folder = getcwd(nil, 0) else { return nil }
        defer { free(folder) }
        return PathBytes.text(UnsafeRawBufferPointer(start: folder, count: strlen(folder)))
    }
}

/// stat(2): inside `FileSystem`, `Glibc.stat` names the struct.
private func statByName(_ path: UnsafePointer<CChar>, _ info: inout stat) -> Int32 {
    stat(path, &info)
}
