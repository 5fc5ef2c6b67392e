// slicevid's entry point: set up the process (or, started by itself as a decode helper, decode
// one still and exit), pick the command, run it, exit with its code.

import SlicevidCLI

let arguments = ProcessHost.arguments
ProcessHost.start(arguments)
ProcessHost.exit(SlicevidTool.main(arguments))
