import CDispatchTable

/// Traps unless objects of class `Target` may be reference-counted by the Swift runtime, as a
/// chain retains, weakly references and zeroing-holds its targets.
///
/// Swift 6.3 lets a C++ foreign reference type (`SWIFT_SHARED_REFERENCE`, `import_reference`)
/// satisfy `AnyObject` (swiftlang/swift#90015): generic code over it then retains and releases
/// it with the Swift runtime, which writes Swift reference counts into the C++ object's fields.
/// Its type metadata says what it is (kind 0x204), so a registration refuses it before anything
/// is stored. Native Swift classes (kind 0) and `AnyObject` existentials pass; on Apple platforms
/// so do Objective-C classes
/// (an isa pointer, or an Objective-C class wrapper), which the weak-reference hold serves.
///
/// - Complexity: O(1): one load of the type's metadata, at registration only.
func requireSwiftReferenceCounting<Target: AnyObject>(_ type: Target.Type) {
    let kind = cdt_swift_metadata_kind(unsafeBitCast(type, to: UnsafeRawPointer.self))
    guard kind != 0, kind != objectiveCClassWrapperKind, kind != existentialKind else { return }
    let what =
        kind == foreignReferenceTypeKind
        ? "a C++ foreign reference type" : "not a Swift class (metadata kind 0x\(String(kind, radix: 16)))"
    // fatalError, not preconditionFailure: an optimized build drops a precondition's message,
    // and a user who registers such a type needs to read why.
    fatalError(
        "FastDelegates: \(type) is \(what): a chain keeps its targets with Swift reference counting, "
            + "which would write into the object's own fields. Register a Swift object that owns it instead.")
}

/// `MetadataKind::ForeignReferenceType` in the Swift runtime's ABI.
private let foreignReferenceTypeKind: UInt = 0x204
/// `MetadataKind::Existential` in the Swift runtime's ABI: `Target` is `AnyObject` (or an
/// `@objc` protocol's existential), whose value's class only the value knows. Reading it would
/// read the object's first word, which a foreign object need not make a valid metadata pointer, so
/// a foreign reference first converted to `AnyObject` is not detected.
private let existentialKind: UInt = 0x303
/// `MetadataKind::ObjCClassWrapper` in the Swift runtime's ABI.
private let objectiveCClassWrapperKind: UInt = 0x305
