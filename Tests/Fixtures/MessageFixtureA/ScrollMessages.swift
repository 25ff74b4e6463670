import FastDelegates

/// A library that declares `scrollViewDidScroll:` with a `Double` offset (used by the message
/// identity tests; not a product).
public enum LibraryAScroll {
    /// The vertical offset.
    public static let didScroll = Message<Double, Void>("scrollViewDidScroll:")
}
