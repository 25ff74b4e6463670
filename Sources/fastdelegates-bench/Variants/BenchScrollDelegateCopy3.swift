import FastDelegates

// `BenchScrollDelegate` again, for a copy of its proxy's code at another address
// (CodePlacement). The benchmark's proxied protocol, expanded by the macro with the `Macros` trait;
// the release build compiles its checked-in expansion, BenchScrollDelegateCopy3+Generated.swift
// (`make generate` rewrites it), and so builds no swift-syntax.
#if Macros
@DelegateProxy
protocol BenchScrollDelegateCopy3: AnyObject {
    func scrollTick(_ value: Int)
    @DelegateDefault(0) func firstResponder(_ value: Int) -> Int
}
#endif
