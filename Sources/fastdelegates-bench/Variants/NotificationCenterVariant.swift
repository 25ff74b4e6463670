import Foundation

/// Foundation's `NotificationCenter` (a private instance): one block observer per target,
/// holding the target weakly; each post carries the sender as `object` and the value in
/// `userInfo`. The "first responder" query posts a reply box that the first observer fills.
enum NotificationCenterVariant {
    static let tickName = Notification.Name(Bench.tickName)
    static let firstName = Notification.Name(Bench.firstName)

    static let variant = Variant(name: "notificationcenter") { scenario, n in
        let targets = BenchTarget.make(n)
        return switch scenario {
        case .tick: .tick(Observers(targets, first: false), targets: targets)
        case .first: .first(Observers(targets, first: true), targets: targets)
        default: nil
        }
    }

    /// The weak reference an observer block holds. `@unchecked Sendable`: the benchmark posts
    /// and observes on one thread.
    final class WeakTarget: @unchecked Sendable {
        // Sound: the benchmark posts, observes and releases targets on its one harness thread.
        weak var target: BenchTarget?
        init(_ target: BenchTarget) { self.target = target }
    }

    /// Where the first observer writes its answer.
    final class ReplyBox: @unchecked Sendable {
        // Sound: posted and observed on the harness thread alone (NotificationCenter calls a
        // block without a queue synchronously on the posting thread).
        var answer: Int?
    }

    final class Sender {}

    /// One observer per target, of the tick or of the first-responder query.
    final class Observers: Ticking, FirstAnswering {
        let center = NotificationCenter()
        let sender = Sender()
        var tokens: [any NSObjectProtocol] = []

        init(_ targets: [BenchTarget], first: Bool) {
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

        @inline(__always) func tick(_ value: Int) {
            center.post(name: tickName, object: sender, userInfo: ["value": value])
        }

        @inline(__always) func first(_ value: Int) -> Int? {
            let reply = ReplyBox()
            center.post(name: firstName, object: sender, userInfo: ["value": value, "reply": reply])
            return reply.answer
        }
    }
}
