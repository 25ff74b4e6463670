// A C++ object with its own reference count, imported into Swift as a foreign reference type:
// the kind of target a chain must refuse (ForeignReferenceTests); `Sendable`, so that the concurrent
// chain's compile-time check lets it through to the run-time one. Its fields start where a Swift
// object's header would be, so that a Swift retain written into it shows in `words`.
#pragma once

#include <cstdint>

struct __attribute__((swift_attr("import_reference"), swift_attr("retain:canaryRetain"),
                      swift_attr("release:canaryRelease"), swift_attr("@Sendable"))) Canary {
    /// What a Swift object keeps here: its metadata and its reference counts. Zero from birth.
    std::uint64_t words[2];
    /// The C++ reference count, changed by `canaryRetain` and `canaryRelease` only.
    long references;
};

/// A new canary, with one C++ reference that the caller owns.
Canary *_Nonnull canaryMake() __attribute__((swift_attr("returns_retained")));
void canaryRetain(Canary *_Nonnull canary);
void canaryRelease(Canary *_Nonnull canary);
