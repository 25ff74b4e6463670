// A nonisolated protocol's async requirement runs on no actor (default Swift 6 settings): a
// main-actor host cannot await it on a proxy that the main actor keeps, because the proxy and its
// listeners would run off the main actor while it goes on using them. The compiler refuses it,
// as for any non-Sendable delegate; the proxy adds no way around it.
import FastDelegates

@DelegateProxy
protocol NoteDelegate: AnyObject {
    func willPresent(_ id: Int) async -> Int?
}

final class NoteListener: NoteDelegate {
    var seen: [Int] = []
    func willPresent(_ id: Int) async -> Int? {
        seen.append(id)
        return id
    }
}

@MainActor final class NoteHost {
    let proxy = NoteDelegateProxy()
    let listener = NoteListener()
    func deliver() async -> Int? {
        proxy.add(listener)
        return await proxy.willPresent(1)
    }
}
// expect-error: sending 'self.proxy' risks causing data races
