import FastDelegates
import Testing

/// A message whose answer is itself optional (issue 12, item 5).
@Suite("Optional answers")
struct OptionalAnswerTests {
    static let viewForZooming = Message<Void, String?>("adoption.viewForZooming:")
    static let titleForRow = Message<Int, String?>("adoption.optionalTitleForRow:")

    @Test func theFirstAnswerIsNotDoublyOptional() {
        let chain = DelegateChain(), target = Plain()
        let nobody = chain.send(Self.viewForZooming)
        #expect(type(of: nobody) == String?.self)
        #expect(nobody == nil)
        chain.add(target) {
            $0.on(Self.viewForZooming) { _ in "map" }
                .on(Self.titleForRow) { _, row in row == 0 ? nil : "row \(row)" }
        }
        let view = chain.send(Self.viewForZooming)
        #expect(type(of: view) == String?.self)
        #expect(view == "map")
        let title = chain.send(Self.titleForRow, 2)
        #expect(type(of: title) == String?.self)
        #expect(title == "row 2")
        #expect(chain.send(Self.titleForRow, 0, default: "untitled") == nil) // answered nil
        withExtendedLifetime(target) {}
    }

    @Test func nobodyAnsweredAndAnsweredNilStayDistinct() {
        let chain = DelegateChain(), target = Plain()
        let nobody = chain.send(Self.titleForRow, 0, combining: .first)
        #expect(type(of: nobody) == String??.self)
        #expect(nobody == .none)
        chain.add(target) { $0.on(Self.titleForRow) { _, _ in nil } }
        let answeredNil = chain.send(Self.titleForRow, 0, combining: .first)
        #expect(answeredNil == .some(nil))
        #expect(chain.send(Self.titleForRow, 0) == nil)
        #expect(chain.responds(to: Self.titleForRow))
        withExtendedLifetime(target) {}
    }

    @Test func everyDispatcherAnswersTheSameWay() {
        // A concurrent chain takes `Sendable` targets only (it calls them from any thread).
        let slot = DelegateSlot(), concurrent = ConcurrentDelegateChain(), target = Stateless()
        slot.setPrimary(target, responses: Responses<Stateless>().on(Self.viewForZooming) { _ in "slot" })
        concurrent.add(target) { $0.on(Self.viewForZooming) { _ in "concurrent" } }
        let fromSlot: String? = slot.send(Self.viewForZooming)
        let fromConcurrent: String? = concurrent.send(Self.viewForZooming)
        #expect(fromSlot == "slot")
        #expect(fromConcurrent == "concurrent")
        withExtendedLifetime(target) {}
    }
}

/// A target with no state: `Sendable`, so every dispatcher takes it.
private final class Stateless: Sendable {}
