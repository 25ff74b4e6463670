#if Macros
import FastDelegates
import Foundation

/// UIKit's `UITableViewDelegate` as the iOS 18 SDK imports it into Swift
/// (`@MainActor protocol UITableViewDelegate : UIScrollViewDelegate`, every requirement
/// `optional`). 54 requirements of its own, plus the 14 of `UIScrollViewDelegate`.
///
/// Not transcribed: `tableView:accessoryTypeForRowWithIndexPath:` (deprecated in iOS 3.0), which
/// Apple's current Swift documentation no longer lists for this protocol.
@DelegateProxy
@MainActor public protocol UITableViewDelegate: UIScrollViewDelegate {
    // MARK: Display customization
    func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath)
    func tableView(_ tableView: UITableView, willDisplayHeaderView view: UIView, forSection section: Int)
    func tableView(_ tableView: UITableView, willDisplayFooterView view: UIView, forSection section: Int)
    func tableView(_ tableView: UITableView, didEndDisplaying cell: UITableViewCell, forRowAt indexPath: IndexPath)
    func tableView(_ tableView: UITableView, didEndDisplayingHeaderView view: UIView, forSection section: Int)
    func tableView(_ tableView: UITableView, didEndDisplayingFooterView view: UIView, forSection section: Int)

    // MARK: Variable height support
    // Apple's default is the table view's own metric (rowHeight, sectionHeaderHeight, …), a property
    // of the `tableView` parameter: a computed default.
    @DelegateDefault(expression: "tableView.rowHeight")
    func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat
    @DelegateDefault(expression: "tableView.sectionHeaderHeight")
    func tableView(_ tableView: UITableView, heightForHeaderInSection section: Int) -> CGFloat
    @DelegateDefault(expression: "tableView.sectionFooterHeight")
    func tableView(_ tableView: UITableView, heightForFooterInSection section: Int) -> CGFloat
    @DelegateDefault(expression: "tableView.estimatedRowHeight")
    func tableView(_ tableView: UITableView, estimatedHeightForRowAt indexPath: IndexPath) -> CGFloat
    @DelegateDefault(expression: "tableView.estimatedSectionHeaderHeight")
    func tableView(_ tableView: UITableView, estimatedHeightForHeaderInSection section: Int) -> CGFloat
    @DelegateDefault(expression: "tableView.estimatedSectionFooterHeight")
    func tableView(_ tableView: UITableView, estimatedHeightForFooterInSection section: Int) -> CGFloat

    // MARK: Section header & footer views
    func tableView(_ tableView: UITableView, viewForHeaderInSection section: Int) -> UIView?
    func tableView(_ tableView: UITableView, viewForFooterInSection section: Int) -> UIView?

    // MARK: Accessories
    func tableView(_ tableView: UITableView, accessoryButtonTappedForRowWith indexPath: IndexPath)

    // MARK: Selection
    @DelegateDefault(true)
    func tableView(_ tableView: UITableView, shouldHighlightRowAt indexPath: IndexPath) -> Bool
    func tableView(_ tableView: UITableView, didHighlightRowAt indexPath: IndexPath)
    func tableView(_ tableView: UITableView, didUnhighlightRowAt indexPath: IndexPath)
    @DelegateDefault(parameter: "indexPath")
    func tableView(_ tableView: UITableView, willSelectRowAt indexPath: IndexPath) -> IndexPath?
    @DelegateDefault(parameter: "indexPath")
    func tableView(_ tableView: UITableView, willDeselectRowAt indexPath: IndexPath) -> IndexPath?
    func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath)
    func tableView(_ tableView: UITableView, didDeselectRowAt indexPath: IndexPath)
    // iOS 16. Apple: defaults to true when the table view is not editing, false when it is.
    @DelegateDefault(expression: "!tableView.isEditing")
    func tableView(_ tableView: UITableView, canPerformPrimaryActionForRowAt indexPath: IndexPath) -> Bool
    func tableView(_ tableView: UITableView, performPrimaryActionForRowAt indexPath: IndexPath)

    // MARK: Editing
    @DelegateDefault(UITableViewCell.EditingStyle.delete)
    func tableView(_ tableView: UITableView, editingStyleForRowAt indexPath: IndexPath) -> UITableViewCell.EditingStyle
    func tableView(_ tableView: UITableView, titleForDeleteConfirmationButtonForRowAt indexPath: IndexPath) -> String?
    @available(*, deprecated, message: "iOS 8.0–13.0: use tableView(_:trailingSwipeActionsConfigurationForRowAt:)")
    func tableView(_ tableView: UITableView, editActionsForRowAt indexPath: IndexPath) -> [UITableViewRowAction]?
    func tableView(_ tableView: UITableView, leadingSwipeActionsConfigurationForRowAt indexPath: IndexPath)
        -> UISwipeActionsConfiguration?
    func tableView(_ tableView: UITableView, trailingSwipeActionsConfigurationForRowAt indexPath: IndexPath)
        -> UISwipeActionsConfiguration?
    @DelegateDefault(true)
    func tableView(_ tableView: UITableView, shouldIndentWhileEditingRowAt indexPath: IndexPath) -> Bool
    func tableView(_ tableView: UITableView, willBeginEditingRowAt indexPath: IndexPath)
    func tableView(_ tableView: UITableView, didEndEditingRowAt indexPath: IndexPath?)

    // MARK: Moving / reordering
    @DelegateDefault(parameter: "proposedDestinationIndexPath")
    func tableView(
        _ tableView: UITableView,
        targetIndexPathForMoveFromRowAt sourceIndexPath: IndexPath,
        toProposedIndexPath proposedDestinationIndexPath: IndexPath
    ) -> IndexPath

    // MARK: Indentation
    @DelegateDefault(0)
    func tableView(_ tableView: UITableView, indentationLevelForRowAt indexPath: IndexPath) -> Int

    // MARK: Copy and paste (all three deprecated in iOS 13.0)
    @available(*, deprecated, message: "iOS 5.0–13.0: use tableView(_:contextMenuConfigurationForRowAt:point:)")
    @DelegateDefault(false)
    func tableView(_ tableView: UITableView, shouldShowMenuForRowAt indexPath: IndexPath) -> Bool
    @available(*, deprecated, message: "iOS 5.0–13.0: use tableView(_:contextMenuConfigurationForRowAt:point:)")
    @DelegateDefault(false)
    func tableView(
        _ tableView: UITableView,
        canPerformAction action: Selector,
        forRowAt indexPath: IndexPath,
        withSender sender: Any?
    ) -> Bool
    @available(*, deprecated, message: "iOS 5.0–13.0: use tableView(_:contextMenuConfigurationForRowAt:point:)")
    func tableView(
        _ tableView: UITableView,
        performAction action: Selector,
        forRowAt indexPath: IndexPath,
        withSender sender: Any?
    )

    // MARK: Focus
    // Apple: without this method a row can be focused when the table view's rows are selectable.
    @DelegateDefault(expression: "tableView.allowsSelection")
    func tableView(_ tableView: UITableView, canFocusRowAt indexPath: IndexPath) -> Bool
    @DelegateDefault(true)
    func tableView(_ tableView: UITableView, shouldUpdateFocusIn context: UITableViewFocusUpdateContext) -> Bool
    func tableView(
        _ tableView: UITableView,
        didUpdateFocusIn context: UITableViewFocusUpdateContext,
        with coordinator: UIFocusAnimationCoordinator
    )
    func indexPathForPreferredFocusedView(in tableView: UITableView) -> IndexPath?
    // iOS 15. Apple: without this method the table view uses its `selectionFollowsFocus` property.
    @DelegateDefault(expression: "tableView.selectionFollowsFocus")
    func tableView(_ tableView: UITableView, selectionFollowsFocusForRowAt indexPath: IndexPath) -> Bool

    // MARK: Spring loading
    @DelegateDefault(true)
    func tableView(
        _ tableView: UITableView,
        shouldSpringLoadRowAt indexPath: IndexPath,
        with context: any UISpringLoadedInteractionContext
    ) -> Bool

    // MARK: Multiple selection
    @DelegateDefault(false)
    func tableView(_ tableView: UITableView, shouldBeginMultipleSelectionInteractionAt indexPath: IndexPath) -> Bool
    func tableView(_ tableView: UITableView, didBeginMultipleSelectionInteractionAt indexPath: IndexPath)
    func tableViewDidEndMultipleSelectionInteraction(_ tableView: UITableView)

    // MARK: Contextual menus
    func tableView(
        _ tableView: UITableView,
        contextMenuConfigurationForRowAt indexPath: IndexPath,
        point: CGPoint
    ) -> UIContextMenuConfiguration?
    @available(
        *, deprecated, message: "iOS 13.0–16.0: use tableView(_:contextMenuConfiguration:highlightPreviewForRowAt:)"
    )
    func tableView(
        _ tableView: UITableView,
        previewForHighlightingContextMenuWithConfiguration configuration: UIContextMenuConfiguration
    ) -> UITargetedPreview?
    @available(
        *, deprecated, message: "iOS 13.0–16.0: use tableView(_:contextMenuConfiguration:dismissalPreviewForRowAt:)"
    )
    func tableView(
        _ tableView: UITableView,
        previewForDismissingContextMenuWithConfiguration configuration: UIContextMenuConfiguration
    ) -> UITargetedPreview?
    func tableView(
        _ tableView: UITableView,
        contextMenuConfiguration configuration: UIContextMenuConfiguration,
        highlightPreviewForRowAt indexPath: IndexPath
    ) -> UITargetedPreview?
    func tableView(
        _ tableView: UITableView,
        contextMenuConfiguration configuration: UIContextMenuConfiguration,
        dismissalPreviewForRowAt indexPath: IndexPath
    ) -> UITargetedPreview?
    func tableView(
        _ tableView: UITableView,
        willPerformPreviewActionForMenuWith configuration: UIContextMenuConfiguration,
        animator: any UIContextMenuInteractionCommitAnimating
    )
    func tableView(
        _ tableView: UITableView,
        willDisplayContextMenu configuration: UIContextMenuConfiguration,
        animator: (any UIContextMenuInteractionAnimating)?
    )
    func tableView(
        _ tableView: UITableView,
        willEndContextMenuInteraction configuration: UIContextMenuConfiguration,
        animator: (any UIContextMenuInteractionAnimating)?
    )
}
#endif
