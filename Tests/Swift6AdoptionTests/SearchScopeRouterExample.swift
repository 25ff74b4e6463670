import FastDelegates
import Testing

/// Seed 003 in @MainActor app code: a @MainActor search controller owns a router keyed by its
/// search bar's selected scope (read from main-actor state on every send), routing to
/// @MainActor data sources with isolated conformances.
@Suite("MainActor example: search-scope router") @MainActor
struct MainActorSearchScopeRouterExample {
    enum Scope: Hashable { case people, organizations, recent }

    enum TableMessages {
        static let numberOfRows = Message<Int, Int>("adoption.tableView:numberOfRowsInSection:")
        static let titleForRow = Message<Int, String>("adoption.tableView:titleForRow:")
        static let heightForHeader = Message<Int, Double>("adoption.tableView:heightForHeader:")
    }

    @MainActor final class PeopleSource {
        var names = ["Ada", "Grace", "Linus"]
    }

    @MainActor final class OrganizationSource {
        var organizations = ["ACM", "IEEE"]
    }

    @MainActor final class SearchBar { var selectedScope = Scope.people }

    @MainActor final class SearchController {
        let searchBar = SearchBar()
        let people = PeopleSource()
        let router: DelegateRouter<Scope>
        private(set) var reloads = 0

        init() {
            let searchBar = self.searchBar
            router = DelegateRouter(key: { searchBar.selectedScope })
            router.route(.people, to: people, retention: .weak)
            router.route(.organizations, to: OrganizationSource())
            // The default answers through a handler that uses this controller's state.
            router.setDefault(
                self, retention: .weak,
                responses: Responses<SearchController>()
                    .on(TableMessages.numberOfRows) { me, _ in
                        me.reloads += 1
                        return 0
                    })
        }

        func visibleRows() -> [String] {
            let count = router.send(TableMessages.numberOfRows, 0, default: 0)
            return (0..<count).map { router.send(TableMessages.titleForRow, $0, default: "") }
        }

        func headerHeight() -> Double {
            router.send(TableMessages.heightForHeader, 0, default: 0)
        }
    }

    @Test func eachScopeShowsItsOwnSourceAndUnknownScopesTheDefault() {
        let screen = SearchController()
        #expect(screen.visibleRows() == ["Ada", "Grace", "Linus"])
        #expect(screen.headerHeight() == 28)
        screen.people.names.append("Barbara")
        #expect(screen.visibleRows().count == 4)
        screen.searchBar.selectedScope = .organizations
        #expect(screen.visibleRows() == ["ACM", "IEEE"])
        #expect(screen.headerHeight() == 0)
        screen.searchBar.selectedScope = .recent
        #expect(screen.visibleRows() == [])
        #expect(screen.reloads == 1)
    }
}

extension MainActorSearchScopeRouterExample.PeopleSource: @MainActor DelegateResponder {
    static let responses = Responses<MainActorSearchScopeRouterExample.PeopleSource>()
        .on(MainActorSearchScopeRouterExample.TableMessages.numberOfRows) { me, _ in me.names.count }
        .on(MainActorSearchScopeRouterExample.TableMessages.titleForRow) { me, row in me.names[row] }
        .on(MainActorSearchScopeRouterExample.TableMessages.heightForHeader) { _, _ in 28 }
}

extension MainActorSearchScopeRouterExample.OrganizationSource: @MainActor DelegateResponder {
    static let responses = Responses<MainActorSearchScopeRouterExample.OrganizationSource>()
        .on(MainActorSearchScopeRouterExample.TableMessages.numberOfRows) { me, _ in me.organizations.count }
        .on(MainActorSearchScopeRouterExample.TableMessages.titleForRow) { me, row in me.organizations[row] }
}
