#if Macros
import FastDelegates
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Minimal stand-ins for the UIKit, WebKit, CoreLocation and AVFAudio types that the transcribed
// delegate protocols mention, named as Apple names them. Only what the requirements (and the draft
// scenarios' hosts) need. Foundation types that exist on Linux (URLSession and its tasks,
// URLRequest, URLResponse, HTTPURLResponse, CachedURLResponse, URLAuthenticationChallenge,
// URLCredential, URLSessionTaskMetrics, InputStream, IndexPath, Data, NSRange, CGFloat, CGPoint,
// URLSession.AuthChallengeDisposition/ResponseDisposition/DelayedRequestDisposition) are the real
// ones; only `Selector` is stood in for, where the Objective-C runtime is absent.

#if !canImport(ObjectiveC)
/// The Objective-C runtime's `Selector` (used by the deprecated copy/paste requirements of
/// `UITableViewDelegate`): absent on Linux.
public struct Selector: Hashable, Sendable {
    public let name: String
    public init(_ name: String) { self.name = name }
}
#endif

// MARK: - UIKit

@MainActor open class UIView {
    public init() {}
}

@MainActor open class UIScrollView: UIView {
    public var contentOffset = CGPoint.zero
    public var zoomScale: CGFloat = 1
    public weak var delegate: (any UIScrollViewDelegate)?
}

@MainActor open class UITableView: UIScrollView {
    /// UIKit: "Return this value from UITableViewDelegate methods that request dimension metrics
    /// when you want UITableView to choose a default value."
    public nonisolated static let automaticDimension: CGFloat = -1
    public var rowHeight: CGFloat = UITableView.automaticDimension
    public var sectionHeaderHeight: CGFloat = UITableView.automaticDimension
    public var sectionFooterHeight: CGFloat = UITableView.automaticDimension
    public var estimatedRowHeight: CGFloat = UITableView.automaticDimension
    public var estimatedSectionHeaderHeight: CGFloat = UITableView.automaticDimension
    public var estimatedSectionFooterHeight: CGFloat = UITableView.automaticDimension
    public var allowsSelection = true
    public var selectionFollowsFocus = false
    public var isEditing = false
    public private(set) var indexPathForSelectedRow: IndexPath?
    public var tableDelegate: (any UITableViewDelegate)? {
        get { delegate as? any UITableViewDelegate }
        set { delegate = newValue }
    }
    /// Stand-in bookkeeping only: what the draft host records when it selects.
    public func setSelectedRow(_ indexPath: IndexPath?) { indexPathForSelectedRow = indexPath }
}

@MainActor open class UITableViewCell: UIView {
    public enum EditingStyle: Int, Sendable {
        case none, delete, insert
    }
}

@MainActor public final class UITableViewRowAction {
    public init() {}
}

@MainActor public final class UISwipeActionsConfiguration {
    public init() {}
}

@MainActor public final class UITableViewFocusUpdateContext {
    public init() {}
}

@MainActor public final class UIFocusAnimationCoordinator {
    public init() {}
}

@MainActor public protocol UISpringLoadedInteractionContext: AnyObject {}

@MainActor public final class UIContextMenuConfiguration {
    public init() {}
}

@MainActor public final class UITargetedPreview {
    public init() {}
}

@MainActor public protocol UIContextMenuInteractionAnimating: AnyObject {}

@MainActor public protocol UIContextMenuInteractionCommitAnimating: UIContextMenuInteractionAnimating {}

public enum UIBarPosition: Int, Sendable {
    case any, bottom, top, topAttached
}

@MainActor public protocol UIBarPositioning: AnyObject {
    var barPosition: UIBarPosition { get }
}

@MainActor public final class UISearchBar: UIView, UIBarPositioning {
    public var text: String?
    public var selectedScopeButtonIndex = 0
    public var barPosition: UIBarPosition = .any
    public weak var delegate: (any UISearchBarDelegate)?
}

@MainActor public final class UIToolbar: UIView, UIBarPositioning {
    public var barPosition: UIBarPosition = .any
    public weak var delegate: (any UIToolbarDelegate)?
}

@MainActor public final class UITextField: UIView {
    public enum DidEndEditingReason: Int, Sendable {
        case committed, cancelled
    }
    public var text: String?
    public weak var delegate: (any UITextFieldDelegate)?
}

@MainActor open class UIMenuElement {
    public init() {}
}

@MainActor public final class UIMenu: UIMenuElement {}

@MainActor public protocol UIEditMenuInteractionAnimating: AnyObject {}

@MainActor public final class UIInputSuggestion {
    public init() {}
}

// MARK: - WebKit

@MainActor public final class WKWebView: UIView {
    public weak var navigationDelegate: (any WKNavigationDelegate)?
}

/// Not main-actor bound in the SDK (`WKNavigation` is a plain NSObject subclass).
public final class WKNavigation {
    public init() {}
}

@MainActor public final class WKNavigationAction {
    public let request: URLRequest
    public init(request: URLRequest) { self.request = request }
}

@MainActor public final class WKNavigationResponse {
    public let response: URLResponse
    public let canShowMIMEType: Bool
    public init(response: URLResponse, canShowMIMEType: Bool = true) {
        self.response = response
        self.canShowMIMEType = canShowMIMEType
    }
}

@MainActor public final class WKWebpagePreferences {
    public init() {}
}

@MainActor public final class WKDownload {
    public init() {}
}

public enum WKNavigationActionPolicy: Int, Sendable {
    case cancel, allow, download
}

public enum WKNavigationResponsePolicy: Int, Sendable {
    case cancel, allow, download
}

// MARK: - CoreLocation

open class CLLocationManager {
    public weak var delegate: (any CLLocationManagerDelegate)?
    public init() {}
}

open class CLLocation {
    public init() {}
}

open class CLHeading {
    public init() {}
}

open class CLRegion {
    public let identifier: String
    public init(identifier: String) { self.identifier = identifier }
}

open class CLBeaconRegion: CLRegion {}

open class CLBeacon {
    public init() {}
}

open class CLBeaconIdentityConstraint {
    public init() {}
}

open class CLVisit {
    public init() {}
}

public enum CLRegionState: Int, Sendable {
    case unknown, inside, outside
}

public enum CLAuthorizationStatus: Int32, Sendable {
    case notDetermined, restricted, denied, authorizedAlways, authorizedWhenInUse
}

// MARK: - UIKit's IndexPath rows and sections

// UIKit's overlay adds them to Foundation's IndexPath.
extension IndexPath {
    public init(row: Int, section: Int) { self.init(indexes: [section, row]) }
    public var section: Int { self[0] }
    public var row: Int { self[1] }
}

// MARK: - AVFAudio

open class AVAudioPlayer {
    public weak var delegate: (any AVAudioPlayerDelegate)?
    public init() {}
}
#endif
