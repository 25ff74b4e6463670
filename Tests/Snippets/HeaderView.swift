import FastDelegates

// A header that follows the scroll offset, and the host whose slot it watches.

@MainActor final class HeaderView {
    func update(_ offset: Double) {}
}

@MainActor let headerView = HeaderView()
@MainActor let scrollView = ScrollView()
