/// The formats of the files that `swift package generate-delegate-proxies` writes: the checked-in
/// expansions of `@DelegateProxy` protocols that let a package build without the `Macros` trait.
///
/// Each generated file names the format it is written in. A version of FastDelegates that can no
/// longer compile a format marks it unavailable, with a message that says to regenerate the file,
/// so an outdated file fails with that message rather than with errors inside generated code.
/// See <doc:ShippingProxiesWithoutSwiftSyntax>.
public enum GeneratedDelegateProxies {
    /// The first format of FastDelegates 0.1: each proxy keeps a ``ResponderCache`` of its
    /// listeners' handlers and a ``PreparedMessage`` per requirement. Still compiled: such a file
    /// works as it did, without the savings of ``Format2``.
    public enum Format1 {}

    /// The format of FastDelegates 0.1 that the plugin writes: a proxy shares its listeners'
    /// handlers for the process (``ResponderCache/responder(of:answering:_:)``) and keeps a
    /// ``PreparedRequirement`` per synchronous requirement inline. A version of FastDelegates
    /// without it fails on this name: update FastDelegates, or generate the file with yours.
    public enum Format2 {}
}
