#if Macros
import FastDelegates

// A module that declares its own types named like the library's: the generated code still
// compiles, because it names every library type through `FastDelegates.`.
public struct Message {}
public struct DelegateChain {}
public struct Responses {}
public enum Retention { case forever }

/// A nonisolated protocol nested in a type, in a module with the names above.
public enum Editor {
    @DelegateProxy
    public protocol TextDelegate: AnyObject {
        func textDidChange(_ text: String, at position: Int)
        func textDidChange(_ text: String)
        @DelegateDefault(Int.max) func maximumLength() -> Int
    }
}
#endif
