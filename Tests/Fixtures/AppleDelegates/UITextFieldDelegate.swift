#if Macros
import FastDelegates
import Foundation

/// UIKit's `UITextFieldDelegate` as the iOS 18.4 SDK imports it into Swift
/// (`@MainActor protocol UITextFieldDelegate : NSObjectProtocol`, every requirement `optional`).
/// 13 requirements. (iOS 26's `textField(_:shouldChangeCharactersInRanges:replacementString:)` is
/// after this SDK and not transcribed.)
@DelegateProxy
@MainActor public protocol UITextFieldDelegate: AnyObject {
    // Managing editing
    @DelegateDefault(true) func textFieldShouldBeginEditing(_ textField: UITextField) -> Bool
    func textFieldDidBeginEditing(_ textField: UITextField)
    @DelegateDefault(true) func textFieldShouldEndEditing(_ textField: UITextField) -> Bool
    // UIKit calls the `reason:` form when the delegate implements it, and this one otherwise.
    func textFieldDidEndEditing(_ textField: UITextField)
    func textFieldDidEndEditing(_ textField: UITextField, reason: UITextField.DidEndEditingReason)

    // Editing the text field's text
    @DelegateDefault(true)
    func textField(
        _ textField: UITextField,
        shouldChangeCharactersIn range: NSRange,
        replacementString string: String
    ) -> Bool
    @DelegateDefault(true) func textFieldShouldClear(_ textField: UITextField) -> Bool
    @DelegateDefault(true) func textFieldShouldReturn(_ textField: UITextField) -> Bool
    func textFieldDidChangeSelection(_ textField: UITextField)

    // Managing the edit menu (iOS 16)
    func textField(
        _ textField: UITextField,
        editMenuForCharactersIn range: NSRange,
        suggestedActions: [UIMenuElement]
    ) -> UIMenu?
    func textField(_ textField: UITextField, willPresentEditMenuWith animator: any UIEditMenuInteractionAnimating)
    func textField(_ textField: UITextField, willDismissEditMenuWith animator: any UIEditMenuInteractionAnimating)

    // Input suggestions (iOS 18.4)
    func textField(_ textField: UITextField, insertInputSuggestion inputSuggestion: UIInputSuggestion)
}
#endif
