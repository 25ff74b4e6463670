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

    /// The second format of FastDelegates 0.1: a proxy shares its listeners' handlers for the
    /// process (``ResponderCache/responder(of:answering:_:)``) and keeps a ``PreparedRequirement``
    /// per synchronous requirement inline. Still compiled: such a file works as it did, without
    /// the savings of ``Format3``.
    public enum Format2 {}

    /// The format of FastDelegates 0.1 that the plugin writes: ``Format2``, whose `add` learns
    /// whether a listener is itself a proxy once per listener class
    /// (``ResponderCache/responder(of:answering:_:nesting:)``) instead of casting every listener.
    /// A version of FastDelegates without it fails on this name: update FastDelegates, or
    /// generate the file with yours.
    public enum Format3 {}
}
