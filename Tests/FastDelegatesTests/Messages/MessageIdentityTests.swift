import FastDelegates
import MessageFixtureA
import MessageFixtureB
import Testing

/// A message is its declaration: two libraries may pick one name, with other types or the same,
/// and both work side by side.
@Suite("Message identity")
struct MessageIdentityTests {
    final class Listener {
        var offsets: [Double] = []
        var points: [LibraryBPoint] = []
    }

    @Test func oneNameWithOtherTypesIsAnotherMessageAndNeverTraps() {
        #expect(LibraryAScroll.didScroll.id != LibraryBScroll.didScroll.id)
        #expect(LibraryAScroll.didScroll.name == "scrollViewDidScroll:")
        #expect(LibraryBScroll.didScroll.name == "scrollViewDidScroll:")
        #expect("\(LibraryBScroll.didScroll)" == "scrollViewDidScroll:")
        #expect(LibraryAScroll.didScroll.debugDescription.contains("Double"))
        #expect(LibraryBScroll.didScroll.debugDescription.contains("LibraryBPoint"))
        // Declared again here, in a third module, with a third type.
        let local = Message<String, Void>("scrollViewDidScroll:")
        #expect(Set([local.id, LibraryAScroll.didScroll.id, LibraryBScroll.didScroll.id]).count == 3)
    }

    @Test func theSameNameAndTypesInTwoModulesAreTwoMessages() {
        #expect(LibraryBScroll.verticalOffset != LibraryAScroll.didScroll)
        #expect(LibraryBScroll.verticalOffset.name == LibraryAScroll.didScroll.name)
        #expect(Message<Double, Void>("scrollViewDidScroll:") != LibraryAScroll.didScroll)
    }

    @Test func eachHandlerGetsItsOwnTypedValueThroughOneChain() {
        let chain = DelegateChain()
        let listener = Listener()
        chain.add(listener) {
            $0.on(LibraryAScroll.didScroll) { me, offset in me.offsets.append(offset) }
                .on(LibraryBScroll.didScroll) { me, point in me.points.append(point) }
        }
        chain.send(LibraryAScroll.didScroll, 12.5)
        chain.send(LibraryBScroll.didScroll, LibraryBPoint(x: 1, y: 2))
        // Library B's declaration with A's name and types is B's own: A's handler does not get it.
        chain.send(LibraryBScroll.verticalOffset, 40)
        #expect(listener.offsets == [12.5])
        #expect(listener.points == [LibraryBPoint(x: 1, y: 2)])
    }

    @Test func eachHandlerGetsItsOwnTypedValueThroughAConcurrentChain() {
        final class Box: @unchecked Sendable {
            // Sound: the test sends from its own thread only, so the handlers run there.
            var offsets: [Double] = []
            var points: [LibraryBPoint] = []
        }
        let chain = ConcurrentDelegateChain()
        let box = Box()
        chain.add(box, retention: .strong) {
            $0.on(LibraryAScroll.didScroll) { me, offset in me.offsets.append(offset) }
                .on(LibraryBScroll.didScroll) { me, point in me.points.append(point) }
        }
        chain.send(LibraryBScroll.didScroll, LibraryBPoint(x: 3, y: 4))
        chain.send(LibraryAScroll.didScroll, 7)
        #expect(box.offsets == [7])
        #expect(box.points == [LibraryBPoint(x: 3, y: 4)])
    }
}
