// A target that the handlers of <doc:UsingFastDelegatesWithSwiftConcurrency> ignore.

final class Target {}

@MainActor let target = Target()
