#if Macros
import CompositionViews
import FastDelegates

/// A private protocol that `PrivatePingerA.swift` declares too, with the same name, requirements
/// and types: each file's proxy reaches its own listeners only.
@DelegateProxy
@MainActor private protocol Pinger: AnyObject {
    func ping(_ view: ScrollView) -> String?
    func tick(_ view: ScrollView) async
}

@MainActor private final class PingerListener: Pinger {
    var ticks = 0
    func ping(_ view: ScrollView) -> String? { "B pings \(view.name)" }
    func tick(_ view: ScrollView) async { ticks += 1 }
}

/// What this file's proxy answers, and how many ticks its listener heard, after `send` ran
/// (the other file's sends).
@MainActor func pingerOfFileB(while send: () async -> Void) async -> (answer: String?, ticks: Int) {
    let proxy = PingerProxy()
    let listener = PingerListener()
    proxy.add(listener)
    await send()
    await proxy.tick(ScrollView(name: "a"))
    return (proxy.ping(ScrollView(name: "view")), listener.ticks)
}
#endif
