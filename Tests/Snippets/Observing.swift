import FastDelegates

// A host with a delegate slot, and an actor that records metrics.

@MainActor final class ScrollView {
    let delegates = DelegateSlot()
}

actor Metrics {
    func record(_ offset: Double) {}
    func recordUnzoomable() {}
}

@MainActor let scrollView = ScrollView()
let metrics = Metrics()
