/// A view class that two libraries both pass to their delegates, as UIKit's `UIScrollView` is
/// (used by the composition tests; not a product).
@MainActor
public final class ScrollView {
    /// The view's name, for the tests' logs.
    public let name: String
    /// How far it has scrolled.
    public var offset = 0.0

    /// A view called `name`.
    public init(name: String) { self.name = name }
}
