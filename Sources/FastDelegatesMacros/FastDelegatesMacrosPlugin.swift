#if Macros
import FastDelegatesProxyGeneration
import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct FastDelegatesMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [DelegateProxyMacro.self, RequirementMarkerMacro.self]
}
#else
// Without the `Macros` trait swift-syntax is not a dependency, and nothing uses this plugin; a
// build of every target (`swift test`) still links it, so it needs an entry point.
@main
enum FastDelegatesMacrosPlugin {
    static func main() {}
}
#endif
