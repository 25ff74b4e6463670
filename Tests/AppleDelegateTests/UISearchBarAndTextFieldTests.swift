#if Macros
import AppleDelegates
import FastDelegates
import Foundation
import Testing

/// Knows only the parent protocol: positions its bar at the top of the screen.
@MainActor final class StatusBarAttacher: UIBarPositioningDelegate {
    func position(for bar: any UIBarPositioning) -> UIBarPosition { .topAttached }
}

/// Live search: reacts to text changes only.
@MainActor final class LiveSearch: UISearchBarDelegate {
    let log: EventLog
    init(log: EventLog) { self.log = log }
    func searchBar(_ searchBar: UISearchBar, textDidChange searchText: String) { log.record("search(\(searchText))") }
}

/// Limits the text to 5 characters.
@MainActor final class LengthLimiter: UITextFieldDelegate {
    func textField(_ textField: UITextField, shouldChangeCharactersIn range: NSRange, replacementString string: String)
        -> Bool
    {
        (textField.text ?? "").count - range.length + string.count <= 5
    }
}

/// Records which end-of-editing form it gets: implements only the `reason:` form.
@MainActor final class EndReasonListener: UITextFieldDelegate {
    let log: EventLog
    init(log: EventLog) { self.log = log }
    func textFieldDidEndEditing(_ textField: UITextField, reason: UITextField.DidEndEditingReason) {
        log.record("didEnd(\(reason))")
    }
}

extension UISearchBar {
    func moveToWindow() { barPosition = delegate?.position(for: self) ?? .top }
    func type(_ text: String) {
        let range = NSRange(location: (self.text ?? "").utf16.count, length: 0)
        guard delegate?.searchBar(self, shouldChangeTextIn: range, replacementText: text) ?? true else { return }
        self.text = (self.text ?? "") + text
        delegate?.searchBar(self, textDidChange: self.text ?? "")
    }
}

extension UIToolbar {
    func moveToWindow() { barPosition = delegate?.position(for: self) ?? .bottom }
}

extension UITextField {
    func type(_ string: String) {
        let range = NSRange(location: (text ?? "").utf16.count, length: 0)
        guard delegate?.textField(self, shouldChangeCharactersIn: range, replacementString: string) ?? true else {
            return
        }
        text = (text ?? "") + string
    }
    func tapToEdit() -> Bool { delegate?.textFieldShouldBeginEditing(self) ?? true }
}

@MainActor
@Suite("UISearchBarDelegate (with UIBarPositioningDelegate) and UITextFieldDelegate proxies")
struct UISearchBarAndTextFieldTests {
    @Test("A UIBarPositioningDelegate-only listener on a UISearchBarDelegate proxy answers position(for:)")
    func parentOnlyListener() {
        let bar = UISearchBar()
        let proxy = UISearchBarDelegateProxy()
        bar.delegate = proxy
        let attacher = StatusBarAttacher()
        proxy.add(attacher)
        bar.moveToWindow()
        #expect(bar.barPosition == .topAttached)
    }

    @Test("position(for:) with no listener: .top, the search bar's documented default")
    func positionDefault() {
        let bar = UISearchBar()
        let proxy = UISearchBarDelegateProxy()
        bar.delegate = proxy
        bar.moveToWindow()
        #expect(bar.barPosition == .top)
    }

    @Test("position(for:) with no listener: .bottom for a toolbar, its documented default")
    func toolbarPositionDefault() {
        let toolbar = UIToolbar()
        let proxy = UIToolbarDelegateProxy()
        toolbar.delegate = proxy
        toolbar.moveToWindow()
        #expect(toolbar.barPosition == .bottom)
        proxy.add(StatusBarAttacher())
        toolbar.moveToWindow()
        #expect(toolbar.barPosition == .bottom) // released at once: held weakly
        let attacher = StatusBarAttacher()
        proxy.add(attacher)
        toolbar.moveToWindow()
        #expect(toolbar.barPosition == .topAttached)
    }

    @Test("shouldChangeTextIn defaults to true: typing reaches the live search")
    func typing() {
        let log = EventLog()
        let bar = UISearchBar()
        let proxy = UISearchBarDelegateProxy()
        bar.delegate = proxy
        let search = LiveSearch(log: log)
        proxy.add(search)
        bar.type("ca")
        bar.type("t")
        #expect(log.events == ["search(ca)", "search(cat)"])
        #expect(!proxy.chain.responds(to: UISearchBarDelegateMessages.searchBarShouldChangeTextInReplacementText))
    }

    @Test("textFieldShouldBeginEditing: @DelegateDefault(true); the limiter answers shouldChangeCharactersIn")
    func textField() {
        let field = UITextField()
        let proxy = UITextFieldDelegateProxy()
        field.delegate = proxy
        #expect(field.tapToEdit())
        let limiter = LengthLimiter()
        proxy.add(limiter)
        field.type("hello")
        field.type("!")
        #expect(field.text == "hello")
        #expect(
            proxy.chain.responds(to: UITextFieldDelegateMessages.textFieldShouldChangeCharactersInReplacementString))
    }

    @Test("responds(to:) tells a host which of the two end-of-editing forms to call, once each was sent")
    func endEditingForms() {
        let log = EventLog()
        let proxy = UITextFieldDelegateProxy()
        let listener = EndReasonListener(log: log)
        proxy.add(listener)
        // Before a send asks it, a listener counts as responding to both forms.
        #expect(proxy.chain.responds(to: UITextFieldDelegateMessages.textFieldDidEndEditing))
        // The listener implements only the form with a reason: the other one finds it out.
        proxy.textFieldDidEndEditing(UITextField())
        #expect(log.events.isEmpty)
        #expect(!proxy.chain.responds(to: UITextFieldDelegateMessages.textFieldDidEndEditing))
        #expect(proxy.chain.responds(to: UITextFieldDelegateMessages.textFieldDidEndEditingReason))
        proxy.textFieldDidEndEditing(UITextField(), reason: .committed)
        #expect(log.events == ["didEnd(committed)"])
        #expect(proxy.chain.responds(to: UITextFieldDelegateMessages.textFieldDidEndEditingReason))
    }
}
#endif
