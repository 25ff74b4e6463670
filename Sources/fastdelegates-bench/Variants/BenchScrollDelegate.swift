import FastDelegates

// The benchmark's proxied protocol, expanded by the macro with the `Macros` trait;
// the release build compiles its checked-in expansion, BenchScrollDelegate+Generated.swift
// (`make generate` rewrites it), and so builds no swift-syntax.
#if Macros
@DelegateProxy
protocol BenchScrollDelegate: AnyObject {
    func scrollTick(_ value: Int)
    @DelegateDefault(0) func firstResponder(_ value: Int) -> Int
}
#endif
