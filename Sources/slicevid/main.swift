// slicevid's entry point: set up the process (or, started by itself as a decode helper, decode
// one still and exit), pick the command, run it, exit with its code.

import SlicevidCLI

let arguments = Array(CommandLine.arguments.dropFirst())
ProcessHost.start(arguments)
ProcessHost.exit(SlicevidTool.main(arguments))
