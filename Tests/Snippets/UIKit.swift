import Foundation

// UIKit's table view, as much of it as <doc:AppleDelegateProtocols> mentions; the article
// declares the delegate protocols themselves.

@MainActor open class UIView {
    public init() {}
}

@MainActor open class UIScrollView: UIView {
    public var contentOffset = CGPoint.zero
    public weak var delegate: (any UIScrollViewDelegate)?
}

@MainActor open class UITableView: UIScrollView {}

@MainActor open class UITableViewCell: UIView {
    public enum EditingStyle: Int, Sendable {
        case none, delete, insert
    }
}
