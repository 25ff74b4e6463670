import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct FastDelegatesMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [DelegateProxyMacro.self, RequirementMarkerMacro.self]
}
