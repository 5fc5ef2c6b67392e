// slicevid's entry point: set up the process, pick the command, run it, exit with its code.

import SlicevidCLI

ProcessHost.start()
ProcessHost.exit(SlicevidTool.main(Array(CommandLine.arguments.dropFirst())))
