// @DelegateProxy: an async requirement cannot be forwarded by a synchronous send; one error
// on it, not a wall of type errors from generated code.
import FastDelegates

@DelegateProxy
protocol LoadDelegate: AnyObject {
    func didLoad(_ page: Int) async
}
// expect-error: @DelegateProxy cannot forward an 'async' method
