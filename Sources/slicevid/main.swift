// slicevid's entry point: pick the command, run it, exit with its code.

import Glibc
import SlicevidCLI

StandardStreams.reopenClosedOnDevNull()
SlicevidTool.exit(SlicevidTool.main(Array(CommandLine.arguments.dropFirst())))
