// @DelegateProxy: a requirement whose non-Optional answer has no default is a compile error
// that says what to add (the compiler surfaces the macro's diagnostic on the requirement).
import FastDelegates

@DelegateProxy
@MainActor protocol ScrollDelegate: AnyObject {
    func scrollViewDidScroll(_ offset: Double)
    func scrollViewShouldScrollToTop() -> Bool
}
// expect-error: 'scrollViewShouldScrollToTop()' returns 'Bool', which the proxy must answer when no listener responds: add @DelegateDefault(value)
