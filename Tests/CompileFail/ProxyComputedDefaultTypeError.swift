// @DelegateProxy: a computed default is type-checked in a function of the requirement's
// parameters, and its error points at the attribute (line 9), not into generated code.
import FastDelegates

@DelegateProxy
@MainActor
protocol IndexDelegate: AnyObject {
    // The first letter is a Substring, and the requirement answers a String.
    @DelegateDefault(expression: "name.prefix(1)")
    func sectionIndexTitle(forSectionName name: String) -> String
}
// expect-error: no 'prefix' candidates produce the expected contextual result type 'String'
// expect-error-line: 9
