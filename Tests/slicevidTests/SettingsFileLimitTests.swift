// Presets and manifests are read only from regular files and only up to 16 MiB: a FIFO is
// refused at once (66, named) instead of blocking the read, and a huge file (65, named) is
// never read whole.

import Foundation
import Glibc
import Testing

@Suite(.timeLimit(.minutes(10))) struct SettingsFileLimitTests {
    /// A sparse file of 17 MiB: nothing on disk, too large to be a settings file.
    private func huge(_ path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(descriptor >= 0)
        #expect(ftruncate(descriptor, 17 << 20) == 0)
        close(descriptor)
    }

    @Test func aFIFOOrAHugePresetIsRefusedNamingIt() throws {
        try withScratchFolder { folder in
            #expect(mkfifo(folder + "/fifo.json", 0o600) == 0)
            let fifo = try CLI.make(tinyClip + ["--preset", "fifo.json", "--dry-run"], in: folder)
            #expect(fifo.status == 66, "\(fifo)")
            #expect(fifo.stderrIsOneLine && fifo.stderr.contains("fifo.json") && fifo.stderr.contains("named pipe"), "\(fifo)")
            try huge(folder + "/huge.json")
            let large = try CLI.make(tinyClip + ["--preset", "huge.json", "--dry-run"], in: folder)
            #expect(large.status == 65, "\(large)")
            #expect(large.stderrIsOneLine && large.stderr.contains("huge.json") && large.stderr.contains("at most 16 MiB"), "\(large)")
        }
    }

    @Test func aFIFOOrAHugeManifestIsRefusedNamingIt() throws {
        try withScratchFolder { folder in
            #expect(mkfifo(folder + "/fifo.json", 0o600) == 0)
            let fifo = try CLI.run(["batch", "fifo.json", "--check"], in: folder, timeout: 60)
            #expect(fifo.status == 66, "\(fifo)")
            #expect(fifo.stderrIsOneLine && fifo.stderr.contains("fifo.json") && fifo.stderr.contains("named pipe"), "\(fifo)")
            try huge(folder + "/huge.json")
            let large = try CLI.run(["batch", "huge.json", "--check"], in: folder, timeout: 60)
            #expect(large.status == 65, "\(large)")
            #expect(large.stderrIsOneLine && large.stderr.contains("huge.json") && large.stderr.contains("at most 16 MiB"), "\(large)")
        }
    }
}
