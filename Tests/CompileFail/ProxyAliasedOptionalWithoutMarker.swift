// @DelegateProxy: an Optional answer spelled through a type alias reads as a plain type, which
// needs a default; the error names the marker for it, @DelegateDefault(nil).
import FastDelegates

typealias MaybeTitle = String?

@DelegateProxy
protocol TitleDelegate: AnyObject {
    func title(for row: Int) -> MaybeTitle
}
// expect-error: (an Optional spelled through a type alias: add @DelegateDefault(nil))
