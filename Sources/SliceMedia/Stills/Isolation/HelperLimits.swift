// The limits a decode helper puts on itself before it reads a byte of the still: enough for
// the largest still slicevid decodes, and no more, so a decoder that runs away is stopped by
// the kernel and its still refused.

/// Address-space and CPU-time limits for one decode helper.
package struct HelperLimits: Sendable, Equatable {
    /// Bytes of address space (RLIMIT_AS): past it, allocations fail (and a decoder that does
    /// not check them dies).
    package var addressSpace: UInt64
    /// Seconds of CPU time (RLIMIT_CPU): SIGXCPU at this, SIGKILL five seconds later.
    package var cpuSeconds: UInt64

    package init(addressSpace: UInt64, cpuSeconds: UInt64) {
        self.addressSpace = addressSpace
        self.cpuSeconds = cpuSeconds
    }

    /// 4 GiB and 60 s. The largest still is 100 megapixels (StillLimits); at 16 bits and four
    /// samples that is 800 MB, which a decode holds up to three times (the decoder's own
    /// picture, our frame, the copy into the answer: 2.4 GB), beside the decoder's working
    /// planes (a 4:4:4 16-bit YUV picture: 600 MB) and the process itself (0.25 GiB mapped when
    /// it starts, more once libheif loads its plugins). Measured: a 16-megapixel 8-bit HEIC
    /// grid decodes within 512 MiB; the largest still holds twelve times its picture bytes. A
    /// 100-megapixel HEIC decodes in seconds; a minute of CPU is ten times that and stops a
    /// decoder that loops.
    package static let standard = HelperLimits(addressSpace: 4 << 30, cpuSeconds: 60)

    /// The address space as a user reads it ("4 GiB").
    var addressSpaceDescription: String {
        addressSpace >= 1 << 30 && addressSpace % (1 << 30) == 0 ? "\(addressSpace >> 30) GiB" : "\(addressSpace >> 20) MiB"
    }
}
