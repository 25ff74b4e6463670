/// The formats of the files that `swift package generate-delegate-proxies` writes: the checked-in
/// expansions of `@DelegateProxy` protocols that let a package build without the `Macros` trait.
///
/// Each generated file names the format it is written in. A version of FastDelegates that can no
/// longer compile a format marks it unavailable, with a message that says to regenerate the file,
/// so an outdated file fails with that message rather than with errors inside generated code.
/// See <doc:ShippingProxiesWithoutSwiftSyntax>.
public enum GeneratedDelegateProxies {
    /// The format of FastDelegates 0.1.
    public enum Format1 {}
}
