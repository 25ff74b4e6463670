import FastDelegates
import Testing

/// Seed 003: a search screen whose table asks a different standalone data source per selected
/// scope, with a default, and `0` when the chosen one does not answer. A @MainActor search
/// controller owns a router keyed by its search bar's selected scope (read from main-actor
/// state on every send), routing to @MainActor data sources with isolated conformances.
@Suite("Example: search-scope router") @MainActor
struct SearchScopeRouterExample {
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
        #expect(screen.headerHeight() == 0) // not answered: the seed's `return 0`
        screen.searchBar.selectedScope = .recent
        #expect(screen.visibleRows() == []) // no route: the default
        #expect(screen.router.responds(to: TableMessages.numberOfRows))
        #expect(!screen.router.responds(to: TableMessages.titleForRow))
        #expect(screen.reloads == 1)
    }
}

extension SearchScopeRouterExample.PeopleSource: @MainActor DelegateResponder {
    static let responses = Responses<SearchScopeRouterExample.PeopleSource>()
        .on(SearchScopeRouterExample.TableMessages.numberOfRows) { me, _ in me.names.count }
        .on(SearchScopeRouterExample.TableMessages.titleForRow) { me, row in me.names[row] }
        .on(SearchScopeRouterExample.TableMessages.heightForHeader) { _, _ in 28 }
}

extension SearchScopeRouterExample.OrganizationSource: @MainActor DelegateResponder {
    static let responses = Responses<SearchScopeRouterExample.OrganizationSource>()
        .on(SearchScopeRouterExample.TableMessages.numberOfRows) { me, _ in me.organizations.count }
        .on(SearchScopeRouterExample.TableMessages.titleForRow) { me, row in me.organizations[row] }
}
