// The helper's side: slicevid started with the hidden mode argument confines itself (limits,
// death with its parent), decodes the still on descriptor 3 with the very code the parent
// would run, and answers in the memory file on descriptor 4. Whatever goes wrong inside a
// library ends this process, not the run.

import CPlatform
import Glibc

extension DecodeHelper {
    /// The descriptors a helper is started with (see `cplatform_spawn_helper`).
    static let inputDescriptor: Int32 = 3, answerDescriptor: Int32 = 4

    /// Serves as a decode helper and exits, when `arguments` (the command line after the
    /// executable's name) start with the mode argument; returns at once otherwise.
    package static func serveIfAsked(_ arguments: [String]) {
        guard arguments.first == modeArgument else { return }
        // Not a request the parent makes (a person typing the hidden mode): nothing to do.
        guard let request = HelperRequest(arguments: arguments) else { _exit(2) }
        // _exit: no atexit handlers or C++ destructors of libraries that may be half way
        // through something; the answer is in the memory file already.
        _exit(serve(request))
    }

    /// The exit code of a helper that could write no answer.
    static let noAnswer: Int32 = 3
    /// The exit code of a helper that could not confine itself (its parent gone, a limit refused).
    static let notConfined: Int32 = 4

    /// Decodes as `request` asks; returns the exit code: 0 once an answer (a picture, facts or
    /// a refusal) is written, `noAnswer` or `notConfined` otherwise.
    private static func serve(_ request: HelperRequest) -> Int32 {
        guard cplatform_confine_helper(request.parent, request.limits.addressSpace, request.limits.cpuSeconds) == 0 else {
            return notConfined
        }
        if request.stall { while true { pause() } }
        FFmpegLog.configure(verbose: false)
        do throws(MediaError) {
            let file = try InputFile(descriptor: inputDescriptor, path: request.path)
            switch request.task {
            case .still:
                let still = try StillDecoder.decodeInHelper(file, raster: request.raster)
                try HelperReply.write(still, to: answerDescriptor)
            case .probe:
                guard HelperReply.write(try MediaReader.infoInHelper(file), to: answerDescriptor) else { return noAnswer }
            }
            return 0
        } catch {
            return HelperReply.write(error, to: answerDescriptor) ? 0 : noAnswer
        }
    }
}
