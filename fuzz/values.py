"""Odd values for flags, preset fields and manifest fields. A leading "!" marks a value that is
certainly invalid (it must be refused with 64); the others may be valid or not.
"""

SECONDS = ["0", "-0", "0.2", "1e-320", "1e5", "1e308", "!-1", "!nan", "!inf", "!-inf", "!1e400", "0x1p3",
           "!1/0", "9223372036854775807", "!", "! 0.2"]

VALUES = {
    "size": ["32x18", "2x2", "8192x8192", "!0x0", "!33x18", "!8194x2", "!-2x2", "!99999999999999999999x2",
             "!2x99999999999999999999", "32X18", "! 32x18", "!32x18x2", "!x", "!4294967298x2", "8192x2"],
    "fps": ["30000/1001", "29.97", "240", "!241", "!0", "!-30", "!1/0", "!0/0", "0.0001", "1e-300",
            "1/38430716820228233", "1/9223372036854775807", "9223372036854775807/1",
            "9223372036854775807/9223372036854775806", "-9223372036854775808/-1", "!0x1E", "!30/", "!/30",
            "!30/1/1", "!nan", "!inf", "1e-320", "2/1", "18446744073709551615/1"],
    "hold": SECONDS, "duration": SECONDS, "end-hold": SECONDS, "stagger": SECONDS,
    "slices": ["1", "75", "8192", "!0", "!-1", "!8193", "!99999999999999999999", "!0px", "1px", "!-1px", "24px",
               "!99999999999999999999px", "9223372036854775807px", "!px", "!1.5", "32px"],
    "travel": ["1,4", "0,0", "-1,1", "!4,1", "1e308,1e308", "-1e308,1e308", "!nan,1", "!1,inf", "!1", "!1,2,3",
               "!,", "1e-320,1e-320", "1e300,1e308"],
    "easing": ["spring", "linear", "ease-in-out", "ease-out-bounce", "!bounce-out", "!easeOutBounce", "!",
               "!spring(", "!cubic-bezier(", "!cubic-bezier(0,0,1)", "cubic-bezier(0,1e20,1,0)",
               "cubic-bezier(0,-1e20,1,1e20)", "!cubic-bezier(-1,0,1,1)", "!cubic-bezier(0,0,2,1)",
               "cubic-bezier(0,1e308,1,-1e308)", "!cubic-bezier(nan,0,1,1)", "!cubic-bezier(0,inf,1,1)",
               "cubic-bezier(1e-320,0,1,1e-320)", "spring(damping: 1)", "spring(damping: 1e-320)", "!spring(damping: 0)",
               "!spring(damping: 1.7)", "spring(damping: 0.5, velocity: 100)", "!spring(damping: 0.5, velocity: 101)",
               "!spring(damping: nan)", "spring(stiffness: 10000, damping: 1e-320, mass: 1e-320)",
               "spring(stiffness: 1e-320, damping: 10000, mass: 10000)", "!spring(stiffness: 0)",
               "!spring(stiffness: 10001)", "!spring(stiffness: inf)", "spring(stiffness: 10000, damping: 10000, mass: 1e-9)",
               "!spring(damping: 0.8, damping: 0.9)", "!ease-in-out-bounce-bounce"],
    "seed": ["0", "18446744073709551615", "!18446744073709551616", "!-1", "!0x10", "!1e3", "!", "00000000000000000001"],
    "background": ["#000000", "#ffffff80", "transparent", "!#GGGGGG", "!#1234567", "!", "!red", "!#12345", "#00000000"],
    "motion-blur": ["1", "32", "!33", "!0", "!-1", "!99999999999999999999", "!1.5", "2"],
    "motion": ["none", "push-in", "pan-left", "pan-down", "PULL-OUT", "!zoom", "!", "!push_in", "!push-in "],
    "motion-amount": ["0.01", "0.1", "1", "!0", "!0.009", "!1.01", "!nan", "!inf", "!1e308", "!-0.1", "!0x1", "!"],
    "motion-easing": ["linear", "ease-in-out", "spring(damping: 1)", "!wobbly", "!spring(damping: 0)", "!"],
    "fit": ["cover", "contain", "!fill", "!", "COVER"],
    "direction": ["vertical", "horizontal", "!diagonal", "!", "HORIZONTAL"],
    "crf": ["0", "18", "51", "63", "!-1", "!64", "!99999999999999999999", "!1.5", "!nan"],
    "bitrate": ["1k", "2500k", "4M", "2000M", "!0", "!999", "!2001M", "!-1", "!1e308", "!nan", "1.5m", "!k"],
    "encoder-preset": ["ultrafast", "placebo", "0", "13", "!-1", "!99", "!bogus", "!", "8"],
    "pix-fmt": ["yuv420p", "yuv444p", "yuv420p10le", "!rgb24", "!bogus", "!", "!yuv420p;rm -rf /"],
    "gif-fps": ["15", "50", "!51", "!0", "!1/0", "!nan", "0.001", "!-1"],
    "gif-width": ["16", "480", "8192", "!15", "!8193", "!0", "!-16", "!99999999999999999999"],
    "poster-at": ["0", "0.1", "99", "1e308", "!-1", "!nan", "!inf"],
    "codec": ["h264", "hevc", "vp9", "av1", "!bogus", "!", "libaom-av1", "libsvtav1", "!prores"],
    "jobs": ["1", "2", "64", "!0", "!-1", "!65", "!1000000", "!99999999999999999999", "!1.5", "!"],
}

# Fields whose value decides how much work a render is: a case that sets them oddly only plans
# (--dry-run, --check), so a legitimately huge render is never mistaken for a hang.
COST_FIELDS = {"size", "fps", "hold", "duration", "end-hold", "stagger", "motion-blur", "slices", "gif-fps", "gif-width"}

# Odd strings anywhere text goes (ids, paths, values): control characters, escapes, lengths.
STRINGS = ["", " ", "a\nb", "line\rreturn", "tab\there", "\x1b[2J\x1b[31mred\x1b[0m", "\x1b]0;title\x07", "nul\x00byte",
           "\x7f\x85\u2028\u2029", "\u202eevil", "é" * 3, "🙂", "x" * 100000, "%s%n%d", "$(touch pwned)", "../../..",
           "\\u0000", "'\"", "-", "--help",
           "x\nslicevid: error: forged line"]

# JSON number texts, valid and not ("!" = not valid JSON, or out of any range).
JSON_NUMBERS = ["0", "-0", "1", "-1", "0.2", "1e308", "!1e400", "!-1e400", "1e-320", "9223372036854775807",
                "9223372036854775808", "18446744073709551616", "-9223372036854775809",
                "123456789012345678901234567890", "1E2", "!NaN", "!Infinity", "!-Infinity", "!0x1E", "!+1", "!.5",
                "!1.", "!01", "!1e", "!--1", "!1_000"]


def split(text):
    """A pool entry → (value text, certainly invalid?)."""
    return (text[1:], True) if text.startswith("!") else (text, False)


def field_value(rng, name):
    """An odd value for the flag or field `name`: (text, certainly invalid?)."""
    return split(rng.choice(VALUES[name]))
