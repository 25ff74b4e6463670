import FastDelegates

// The lifecycle scenario's proxied protocol (issue 53): a cell's delegate of 8 requirements, of
// which each listener implements 2. Expanded by the macro with the `Macros` trait; the release
// build compiles its checked-in expansion, BenchCellDelegate+Generated.swift (`make generate`
// rewrites it), and so builds no swift-syntax.
#if Macros
@DelegateProxy
protocol BenchCellDelegate: AnyObject {
    func cellDidTick(_ value: Int)
    func cellDidBeginEditing(_ value: Int)
    func cellDidEndEditing(_ value: Int)
    func cellDidChange(_ value: Int)
    func cellDidSelect(_ value: Int)
    func cellDidDeselect(_ value: Int)
    func cellWillDisplay(_ value: Int)
    func cellDidEndDisplaying(_ value: Int)
}
#endif
