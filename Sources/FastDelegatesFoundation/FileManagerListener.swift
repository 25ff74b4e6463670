import FastDelegates
import Foundation

// The proxied protocol, expanded by the macro with the `Macros` trait; every other build compiles
// its checked-in expansion, FileManagerListener+Generated.swift (`make generate` rewrites it).
#if Macros
/// `FileManagerDelegate`, transcribed as Foundation declares it: add listeners to a
/// ``FileManagerListenerProxy``, which fills `FileManager.delegate`. `Sendable`, as Foundation
/// declares it. Each answer is the first implementing listener's; when nobody implements a
/// requirement, Foundation's own default (swift-foundation's `SwiftFileManagerDelegate.swift`,
/// Apple's documentation): every `should…Item` answers `true`, every `shouldProceedAfterError`
/// `false`. On Linux, FileManager asks only the URL forms: a listener that implements only a
/// path form is never asked (the proxy answers the URL form, so Apple's FileManager asks it first too).
@DelegateProxy(superclass: NSObject.self)
public protocol FileManagerListener: AnyObject, Sendable {
    /// `FileManagerDelegate.fileManager(_:shouldCopyItemAtPath:toPath:)`. Nobody: `true`. Not asked on Linux.
    @DelegateDefault(true)
    func fileManager(_ fileManager: FileManager, shouldCopyItemAtPath srcPath: String, toPath dstPath: String) -> Bool
    /// `FileManagerDelegate.fileManager(_:shouldProceedAfterError:copyingItemAtPath:toPath:)`. Nobody: `false`. Not asked on Linux.
    @DelegateDefault(false)
    func fileManager(
        _ fileManager: FileManager, shouldProceedAfterError error: any Error, copyingItemAtPath srcPath: String,
        toPath dstPath: String
    ) -> Bool
    /// `FileManagerDelegate.fileManager(_:shouldMoveItemAtPath:toPath:)`. Nobody: `true`. Not asked on Linux.
    @DelegateDefault(true)
    func fileManager(_ fileManager: FileManager, shouldMoveItemAtPath srcPath: String, toPath dstPath: String) -> Bool
    /// `FileManagerDelegate.fileManager(_:shouldProceedAfterError:movingItemAtPath:toPath:)`. Nobody: `false`. Not asked on Linux.
    @DelegateDefault(false)
    func fileManager(
        _ fileManager: FileManager, shouldProceedAfterError error: any Error, movingItemAtPath srcPath: String,
        toPath dstPath: String
    ) -> Bool
    /// `FileManagerDelegate.fileManager(_:shouldLinkItemAtPath:toPath:)`. Nobody: `true`. Not asked on Linux.
    @DelegateDefault(true)
    func fileManager(_ fileManager: FileManager, shouldLinkItemAtPath srcPath: String, toPath dstPath: String) -> Bool
    /// `FileManagerDelegate.fileManager(_:shouldProceedAfterError:linkingItemAtPath:toPath:)`. Nobody: `false`. Not asked on Linux.
    @DelegateDefault(false)
    func fileManager(
        _ fileManager: FileManager, shouldProceedAfterError error: any Error, linkingItemAtPath srcPath: String,
        toPath dstPath: String
    ) -> Bool
    /// `FileManagerDelegate.fileManager(_:shouldRemoveItemAtPath:)`. Nobody: `true`. Not asked on Linux.
    @DelegateDefault(true)
    func fileManager(_ fileManager: FileManager, shouldRemoveItemAtPath path: String) -> Bool
    /// `FileManagerDelegate.fileManager(_:shouldProceedAfterError:removingItemAtPath:)`. Nobody: `false`. Not asked on Linux.
    @DelegateDefault(false)
    func fileManager(
        _ fileManager: FileManager, shouldProceedAfterError error: any Error, removingItemAtPath path: String
    ) -> Bool
    /// `FileManagerDelegate.fileManager(_:shouldCopyItemAt:to:)`. Nobody: `true`.
    @DelegateDefault(true)
    func fileManager(_ fileManager: FileManager, shouldCopyItemAt srcURL: URL, to dstURL: URL) -> Bool
    /// `FileManagerDelegate.fileManager(_:shouldProceedAfterError:copyingItemAt:to:)`. Nobody: `false`.
    @DelegateDefault(false)
    func fileManager(
        _ fileManager: FileManager, shouldProceedAfterError error: any Error, copyingItemAt srcURL: URL, to dstURL: URL
    ) -> Bool
    /// `FileManagerDelegate.fileManager(_:shouldMoveItemAt:to:)`. Nobody: `true`.
    @DelegateDefault(true)
    func fileManager(_ fileManager: FileManager, shouldMoveItemAt srcURL: URL, to dstURL: URL) -> Bool
    /// `FileManagerDelegate.fileManager(_:shouldProceedAfterError:movingItemAt:to:)`. Nobody: `false`.
    @DelegateDefault(false)
    func fileManager(
        _ fileManager: FileManager, shouldProceedAfterError error: any Error, movingItemAt srcURL: URL, to dstURL: URL
    ) -> Bool
    /// `FileManagerDelegate.fileManager(_:shouldLinkItemAt:to:)`. Nobody: `true`.
    @DelegateDefault(true)
    func fileManager(_ fileManager: FileManager, shouldLinkItemAt srcURL: URL, to dstURL: URL) -> Bool
    /// `FileManagerDelegate.fileManager(_:shouldProceedAfterError:linkingItemAt:to:)`. Nobody: `false`.
    @DelegateDefault(false)
    func fileManager(
        _ fileManager: FileManager, shouldProceedAfterError error: any Error, linkingItemAt srcURL: URL, to dstURL: URL
    ) -> Bool
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// `FileManagerDelegate.fileManager(_:shouldRemoveItemAt:)`. Nobody: `true`.
    @DelegateDefault(true)
    func fileManager(_ fileManager: FileManager, shouldRemoveItemAt URL: URL) -> Bool
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// `FileManagerDelegate.fileManager(_:shouldProceedAfterError:removingItemAt:)`. Nobody: `false`.
    @DelegateDefault(false)
    func fileManager(_ fileManager: FileManager, shouldProceedAfterError error: any Error, removingItemAt URL: URL)
        -> Bool
}
#endif
