// The encoder settings' accepted values, in one place for the `make` flags and the batch
// manifest's output settings.

extension EncoderSettings {
    /// x264's speed presets, fastest first: what `--encoder-preset` and `"encoder-preset"` accept.
    public static let speedPresets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium",
                                      "slow", "slower", "veryslow", "placebo"]

    /// The CRF values x264 accepts (0 is lossless, 51 the worst).
    public static let crfRange = 0...51
}
