// @DelegateProxy: a completion handler spelled through a type alias, whose argument is not an
// Optional, with no @DelegateDefault: the proxy has nothing to complete it with when no listener
// implements the requirement. The macro cannot see through the alias; the compiler names the
// marker that resolves it.
import FastDelegates

typealias SizeCompletion = (Int) -> Void

@DelegateProxy
protocol SizeDelegate: AnyObject {
    func measure(_ id: Int, completion: @escaping SizeCompletion)
}
// expect-error: this completion handler takes arguments that are not Optionals: add @DelegateDefault(value) to the requirement
