import Foundation

/// Foundation's `NotificationCenter` (a private instance): one block observer per target,
/// holding the target weakly; each post carries the sender as `object` and the value in
/// `userInfo`. The "first responder" query posts a reply box that the first observer fills.
enum NotificationCenterVariant {
    static let tickName = Notification.Name(Bench.tickName)
    static let firstName = Notification.Name(Bench.firstName)

    static let variant = Variant(name: "notificationcenter") { scenario, n in
        switch scenario {
        case .tick: Observers(n, first: false)
        case .first: Observers(n, first: true)
        default: nil
        }
    }

    /// The weak reference an observer block holds. `@unchecked Sendable`: the benchmark posts
    /// and observes on one thread.
    final class WeakTarget: @unchecked Sendable {
        weak var target: BenchTarget?
        init(_ target: BenchTarget) { self.target = target }
    }

    /// Where the first observer writes its answer.
    final class ReplyBox: @unchecked Sendable {
        var answer: Int?
    }

    final class Sender {}

    final class Observers: Runner {
        let center = NotificationCenter()
        let sender = Sender()
        let targets: [BenchTarget]
        let isFirst: Bool
        var tokens: [any NSObjectProtocol] = []
        var answers = 0

        init(_ n: Int, first: Bool) {
            targets = BenchTarget.make(n)
            isFirst = first
            for target in targets {
                let weak = WeakTarget(target)
                if first {
                    tokens.append(
                        center.addObserver(forName: firstName, object: sender, queue: nil) { note in
                            guard let target = weak.target, let info = note.userInfo,
                                let value = info["value"] as? Int, let reply = info["reply"] as? ReplyBox,
                                reply.answer == nil
                            else { return }
                            reply.answer = target.firstResponder(value)
                        })
                } else {
                    tokens.append(
                        center.addObserver(forName: tickName, object: sender, queue: nil) { note in
                            guard let target = weak.target, let value = note.userInfo?["value"] as? Int else { return }
                            target.scrollTick(value)
                        })
                }
            }
        }

        deinit {
            for token in tokens { center.removeObserver(token) }
        }

        @inline(never)
        func run(_ count: Int, base: Int) {
            if isFirst {
                var sum = 0
                for i in 0..<count {
                    let reply = ReplyBox()
                    center.post(name: firstName, object: sender, userInfo: ["value": base &+ i, "reply": reply])
                    sum &+= reply.answer ?? 0
                }
                answers &+= sum
            } else {
                for i in 0..<count {
                    center.post(name: tickName, object: sender, userInfo: ["value": base &+ i])
                }
            }
        }

        var checksum: Int { isFirst ? answers : targets.reduce(0) { $0 &+ $1.sum } }
    }
}
