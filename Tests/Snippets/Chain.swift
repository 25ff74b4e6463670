import FastDelegates

// A main-actor host's chain and what its sends take, and a concurrent chain.

@MainActor let chain = DelegateChain()
let concurrentChain = ConcurrentDelegateChain()
let action = "copy:"
let row = 0
let section = 0
@MainActor func scrollToTop() {}
