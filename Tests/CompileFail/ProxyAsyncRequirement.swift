// @DelegateProxy: an `async` method that also takes a completion handler would answer its caller
// twice; one error on it, not a wall of type errors from generated code. (Plain `async` and
// `async throws` requirements are forwarded: see AsyncRequirementTests.)
import FastDelegates

@DelegateProxy
protocol LoadDelegate: AnyObject {
    func didLoad(_ page: Int, completionHandler: @escaping () -> Void) async
}
// expect-error: @DelegateProxy cannot forward an 'async' or throwing method that also takes a completion handler
