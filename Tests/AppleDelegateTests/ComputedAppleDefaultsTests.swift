#if Macros
import AppleDelegates
import FastDelegates
import Foundation
import Testing

/// Apple's defaults that depend on a parameter, transcribed with `@DelegateDefault(expression:)`:
/// with no listener, the proxy answers what UIKit and WebKit do without a delegate method.
@MainActor
@Suite("Apple's defaults computed from parameters")
struct ComputedAppleDefaultsTests {
    @Test("A table view's own metrics and flags")
    func tableView() {
        let proxy = UITableViewDelegateProxy()
        let table = UITableView()
        table.rowHeight = 44
        table.sectionHeaderHeight = 28
        table.estimatedSectionFooterHeight = 12
        table.isEditing = true
        table.allowsSelection = false
        table.selectionFollowsFocus = true
        let row = IndexPath(row: 0, section: 0)
        #expect(proxy.tableView(table, heightForRowAt: row) == 44)
        #expect(proxy.tableView(table, heightForHeaderInSection: 0) == 28)
        #expect(proxy.tableView(table, estimatedHeightForFooterInSection: 0) == 12)
        #expect(proxy.tableView(table, heightForFooterInSection: 0) == UITableView.automaticDimension)
        #expect(!proxy.tableView(table, canPerformPrimaryActionForRowAt: row))
        #expect(!proxy.tableView(table, canFocusRowAt: row))
        #expect(proxy.tableView(table, selectionFollowsFocusForRowAt: row))
        table.isEditing = false
        #expect(proxy.tableView(table, canPerformPrimaryActionForRowAt: row))
    }

    @Test("A web view's response decision follows whether it can show the MIME type")
    func responsePolicy() async {
        let proxy = WKNavigationDelegateProxy()
        let shown = WKNavigationResponse(response: sampleResponse(), canShowMIMEType: true)
        let hidden = WKNavigationResponse(response: sampleResponse(), canShowMIMEType: false)
        let recorder = CallRecorder<WKNavigationResponsePolicy>()
        proxy.webView(WKWebView(), decidePolicyFor: shown) { recorder.record($0) }
        proxy.webView(WKWebView(), decidePolicyFor: hidden) { recorder.record($0) }
        #expect(recorder.calls == [.allow, .cancel])
        #expect(await proxy.webView(WKWebView(), decidePolicyFor: hidden) == .cancel)
    }
}
#endif
