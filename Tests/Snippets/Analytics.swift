import FastDelegates

// A concurrent chain and the Sendable listener of <doc:UsingFastDelegatesWithSwiftConcurrency>.

let concurrentChain = ConcurrentDelegateChain()
let analytics = Analytics()
