import FastDelegates

/// A point of library B's own.
public struct LibraryBPoint: Equatable, Sendable, CustomStringConvertible {
    /// The coordinates.
    public var x: Double, y: Double

    /// A point at (`x`, `y`).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// `(x, y)`.
    public var description: String { "(\(x), \(y))" }
}

/// A library that declares `scrollViewDidScroll:` with its own point type, unaware of library A
/// (used by the message identity tests; not a product).
public enum LibraryBScroll {
    /// The content offset.
    public static let didScroll = Message<LibraryBPoint, Void>("scrollViewDidScroll:")
    /// Library A's name and types, declared again here: library B's own message.
    public static let verticalOffset = Message<Double, Void>("scrollViewDidScroll:")
}
