// UIKit's views, as the snippets that only mention them need them.

@MainActor open class UIView {}
@MainActor open class UIScrollView: UIView {}
