#if Macros
import FastDelegates
import Foundation

/// UIKit's `UIBarPositioningDelegate` as the iOS 18 SDK imports it into Swift
/// (`@MainActor protocol UIBarPositioningDelegate : NSObjectProtocol`). 1 requirement.
@DelegateProxy
@MainActor public protocol UIBarPositioningDelegate: AnyObject {
    // Apple: "Delegates for the UINavigationBar and UISearchBar classes return the value
    // UIBarPosition.top by default. The delegate of the UIToolbar class returns the value
    // UIBarPosition.bottom by default."
    @DelegateDefault(expression: "bar is UIToolbar ? UIBarPosition.bottom : UIBarPosition.top")
    func position(for bar: any UIBarPositioning) -> UIBarPosition
}

/// UIKit's `UIToolbarDelegate` as the iOS 18 SDK imports it into Swift
/// (`@MainActor protocol UIToolbarDelegate : UIBarPositioningDelegate`). No requirement of its
/// own.
@DelegateProxy
@MainActor public protocol UIToolbarDelegate: UIBarPositioningDelegate {}

/// UIKit's `UISearchBarDelegate` as the iOS 18 SDK imports it into Swift
/// (`@MainActor protocol UISearchBarDelegate : UIBarPositioningDelegate`, every requirement
/// `optional`). 11 requirements of its own, plus the 1 of `UIBarPositioningDelegate`.
@DelegateProxy
@MainActor public protocol UISearchBarDelegate: UIBarPositioningDelegate {
    // Editing text
    @DelegateDefault(true) func searchBarShouldBeginEditing(_ searchBar: UISearchBar) -> Bool
    func searchBarTextDidBeginEditing(_ searchBar: UISearchBar)
    @DelegateDefault(true) func searchBarShouldEndEditing(_ searchBar: UISearchBar) -> Bool
    func searchBarTextDidEndEditing(_ searchBar: UISearchBar)
    func searchBar(_ searchBar: UISearchBar, textDidChange searchText: String)
    @DelegateDefault(true)
    func searchBar(_ searchBar: UISearchBar, shouldChangeTextIn range: NSRange, replacementText text: String) -> Bool

    // Clicking buttons
    func searchBarSearchButtonClicked(_ searchBar: UISearchBar)
    func searchBarBookmarkButtonClicked(_ searchBar: UISearchBar)
    func searchBarCancelButtonClicked(_ searchBar: UISearchBar)
    func searchBarResultsListButtonClicked(_ searchBar: UISearchBar)

    // Responding to scope button changes
    func searchBar(_ searchBar: UISearchBar, selectedScopeButtonIndexDidChange selectedScope: Int)
}
#endif
