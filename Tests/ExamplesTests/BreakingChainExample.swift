import FastDelegates
import Testing

/// Seed 002 (PHFDelegateChain with `breaking = YES`): a @MainActor window owns a breaking
/// responder chain; a key command goes to the first @MainActor responder in it that takes it,
/// and the others never see it.
@Suite("Example: breaking chain") @MainActor
struct BreakingChainExample {
    static let keyCommand = Message<String, Void>("adoption.handleKeyCommand:")
    static let canPerform = Message<String, Bool>("adoption.canPerformAction:")

    @MainActor final class Editor {
        var handled: [String] = []
        var isActive = true
        func handle(_ key: String) { handled.append(key) }
        func canPerform(_ action: String) -> Bool { isActive && action != "print" }
    }

    @MainActor final class Window {
        let responders = DelegateChain(mode: .breaking)
        var handled: [String] = []

        init() {
            responders.add(self, retention: .weak) {
                $0.on(BreakingChainExample.keyCommand) { me, key in me.handled.append(key) }
                    .on(BreakingChainExample.canPerform) { _, action in action == "print" }
            }
        }

        func focus(_ editor: Editor) { responders.insert(editor, at: 0) }
        func press(_ key: String) { responders.send(BreakingChainExample.keyCommand, key) }
    }

    @Test func theFirstResponderTakesTheCommandUntilItLeaves() {
        let window = Window()
        do {
            let editor = Editor()
            window.focus(editor) // the focused view comes first
            window.press("cmd-b")
            #expect(editor.handled == ["cmd-b"])
            #expect(window.handled.isEmpty)
            #expect(window.responders.send(Self.canPerform, "copy") == true)
            #expect(window.responders.send(Self.canPerform, "print", combining: .anyTrue))
            editor.isActive = false
            #expect(window.responders.send(Self.canPerform, "copy") == false)
        }
        window.press("cmd-w") // the editor is gone
        #expect(window.handled == ["cmd-w"])
    }
}

extension BreakingChainExample.Editor: @MainActor DelegateResponder {
    static let responses = Responses<BreakingChainExample.Editor>()
        .on(BreakingChainExample.keyCommand) { me, key in me.handle(key) }
        .on(BreakingChainExample.canPerform) { me, action in me.canPerform(action) }
}
