#if Macros
import FastDelegates
import Testing

// Computed defaults: Apple's real defaults combine parameters and constants. Three of them, with
// stand-ins for the UIKit/MapKit types: a collection view's transition layout built from the
// current and the next layout, a map view's renderer wrapping the overlay it was given, and a
// table's section index title, the section name's first letter.

final class CollectionLayout {
    let name: String
    init(_ name: String) { self.name = name }
}

final class TransitionLayout {
    let current: CollectionLayout
    let next: CollectionLayout
    init(currentLayout: CollectionLayout, nextLayout: CollectionLayout) {
        current = currentLayout
        next = nextLayout
    }
}

struct MapOverlay: Equatable {
    let id: Int
}

struct OverlayRenderer: Equatable {
    let overlay: MapOverlay
    let lineWidth: Double
}

@DelegateProxy
@MainActor protocol CatalogDelegate: AnyObject {
    @DelegateDefault(expression: "TransitionLayout(currentLayout: fromLayout, nextLayout: toLayout)")
    func collectionView(
        _ collectionView: String, transitionLayoutForOldLayout fromLayout: CollectionLayout,
        newLayout toLayout: CollectionLayout
    ) -> TransitionLayout
    @DelegateDefault(expression: "OverlayRenderer(overlay: overlay, lineWidth: 1)")
    func mapView(_ mapView: String, rendererFor overlay: MapOverlay) -> OverlayRenderer
    @DelegateDefault(expression: "String(name.prefix(1)).uppercased()")
    func sectionIndexTitle(forSectionName name: String) -> String
    @DelegateDefault(expression: "(name.count, name.isEmpty)")
    func measure(_ name: String, completion: @escaping (Int, Bool) -> Void)
}

@MainActor final class CatalogListener: CatalogDelegate {
    func sectionIndexTitle(forSectionName name: String) -> String { "#" }
    func mapView(_ mapView: String, rendererFor overlay: MapOverlay) -> OverlayRenderer {
        OverlayRenderer(overlay: overlay, lineWidth: 5)
    }
}

/// Implements nothing: its defaults answer when called directly.
@MainActor final class CatalogBystander: CatalogDelegate {}

@MainActor
@Suite("Computed defaults: @DelegateDefault(expression:)")
struct ComputedDefaultTests {
    @Test("With no listener, each requirement answers its expression of the parameters")
    func noListener() {
        let proxy = CatalogDelegateProxy()
        let old = CollectionLayout("grid")
        let new = CollectionLayout("list")
        let transition = proxy.collectionView("c", transitionLayoutForOldLayout: old, newLayout: new)
        #expect(transition.current === old)
        #expect(transition.next === new)
        #expect(
            proxy.mapView("m", rendererFor: MapOverlay(id: 3))
                == OverlayRenderer(overlay: MapOverlay(id: 3), lineWidth: 1))
        #expect(proxy.sectionIndexTitle(forSectionName: "kiwis") == "K")
        var measured: [String] = []
        proxy.measure("pear") { measured.append("\($0) \($1)") }
        #expect(measured == ["4 false"])
    }

    @Test("A listener's answer wins; a listener that does not implement it falls back to the expression")
    func listeners() {
        let proxy = CatalogDelegateProxy()
        let bystander = CatalogBystander()
        proxy.add(bystander)
        #expect(proxy.sectionIndexTitle(forSectionName: "apples") == "A")
        let listener = CatalogListener()
        proxy.add(listener)
        #expect(proxy.sectionIndexTitle(forSectionName: "apples") == "#")
        #expect(proxy.mapView("m", rendererFor: MapOverlay(id: 1)).lineWidth == 5)
        let old = CollectionLayout("a")
        #expect(proxy.collectionView("c", transitionLayoutForOldLayout: old, newLayout: old).current === old)
    }

    @Test("Called directly, a listener's generated default answers the expression too")
    func directCall() {
        let bystander = CatalogBystander()
        #expect(bystander.sectionIndexTitle(forSectionName: "zebra") == "Z")
        #expect(bystander.mapView("m", rendererFor: MapOverlay(id: 2)).lineWidth == 1)
    }
}
#endif
