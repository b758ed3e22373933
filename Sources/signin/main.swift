// `signin`: try SignInKit from a terminal or a script: on the offline embedded backend by
// default, or on Firebase Authentication (production or the emulator). The launch lives in
// SignInREPL (`SigninCommand`), where it is tested.
import SignInREPL

SigninCommand.main(Array(CommandLine.arguments.dropFirst()))
