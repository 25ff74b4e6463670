#if Macros
import FastDelegates

// A module compiled with default main-actor isolation (SwiftPM 6.2's `defaultIsolation`): the
// protocol says nothing of its isolation, and everything here, generated code included, is
// main-actor isolated.

/// What a gallery tells its delegate; no isolation written.
@DelegateProxy
public protocol GalleryDelegate: AnyObject {
    func gallery(didShow index: Int)
    @DelegateDefault(true) func galleryShouldWrap() -> Bool
}

/// A gallery with one weak delegate.
public final class Gallery {
    public weak var delegate: (any GalleryDelegate)?
    public private(set) var index = 0
    public let count: Int

    public init(count: Int) { self.count = count }

    public func next() {
        if index + 1 < count {
            index += 1
        } else if delegate?.galleryShouldWrap() ?? true {
            index = 0
        }
        delegate?.gallery(didShow: index)
    }
}

/// Counts what it is shown, with plain state.
public final class ShownCounter: GalleryDelegate {
    public private(set) var shown: [Int] = []
    public init() {}
    public func gallery(didShow index: Int) { shown.append(index) }
}

/// Stops the gallery from wrapping around; implements nothing else.
public final class NoWrap: GalleryDelegate {
    public init() {}
    public func galleryShouldWrap() -> Bool { false }
}
#endif
