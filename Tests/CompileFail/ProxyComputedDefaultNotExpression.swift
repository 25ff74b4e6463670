// @DelegateProxy: a computed default must hold one Swift expression; the macro reports it on
// the attribute.
import FastDelegates

@DelegateProxy
protocol TitleDelegate: AnyObject {
    @DelegateDefault(expression: "let title = name")
    func title(for name: String) -> String
}
// expect-error: @DelegateDefault(expression:) holds 'let title = name', which is not one Swift expression
// expect-error-line: 7
