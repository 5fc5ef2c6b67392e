// slicevid's entry point: pick the command, run it, exit with its code. Started by itself as a
// decode helper, it decodes one still and exits instead.

import Glibc
import SlicevidCLI

let arguments = Array(CommandLine.arguments.dropFirst())
ProcessHost.serveDecodeHelperIfAsked(arguments)
StandardStreams.reopenClosedOnDevNull()
// This very binary (/proc/self/exe names it even if its file is replaced mid-run) decodes the
// stills whose decoders can abort, in helper processes.
ProcessHost.decodeStills(with: "/proc/self/exe")
SlicevidTool.exit(SlicevidTool.main(arguments))
