import FastDelegates
import Testing

/// Seed 002 (PHFDelegateChain with `breaking = YES`): a key command goes to the first handler in
/// the responder chain that takes it; the others never see it.
@Suite("Example: breaking chain")
struct BreakingChainExample {
    static let keyCommand = Message<String, Void>("example.handleKeyCommand:")
    static let canPerform = Message<String, Bool>("example.canPerformAction:")

    final class Editor {
        var handled: [String] = []
        var active = true
        static let responses = SendableResponses<Editor>()
            .on(BreakingChainExample.keyCommand) { me, key in me.handled.append(key) }
            .on(BreakingChainExample.canPerform) { me, action in me.active && action != "print" }
    }

    final class Window {
        var handled: [String] = []
        static let responses = SendableResponses<Window>()
            .on(BreakingChainExample.keyCommand) { me, key in me.handled.append(key) }
            .on(BreakingChainExample.canPerform) { _, action in action == "print" }
    }

    @Test func theFirstResponderTakesTheCommandUntilItLeaves() {
        let responders = DelegateChain(mode: .breaking)
        let window = Window()
        responders.add(window, responses: Window.responses)
        do {
            let editor = Editor()
            responders.insert(editor, at: 0, responses: Editor.responses) // the focused view comes first
            responders.send(Self.keyCommand, "cmd-b")
            #expect(editor.handled == ["cmd-b"])
            #expect(responders.send(Self.canPerform, "copy") == true)
            #expect(responders.send(Self.canPerform, "print", combining: .anyTrue))
        }
        responders.send(Self.keyCommand, "cmd-w") // the editor is gone
        #expect(window.handled == ["cmd-w"])
    }
}
