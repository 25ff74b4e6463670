import FastDelegates
import Testing

/// Seed 003: a search screen whose table asks a different standalone data source per selected
/// scope, with a default, and `0` when the chosen one does not answer.
@Suite("Example: search-scope router")
struct SearchScopeRouterExample {
    enum Scope: Hashable { case people, organizations, recent }

    enum TableMessages {
        static let numberOfRows = Message<Int, Int>("example.tableView:numberOfRowsInSection:")
        static let titleForRow = Message<Int, String>("example.tableView:titleForRow:")
        static let heightForHeader = Message<Int, Double>("example.tableView:heightForHeaderInSection:")
    }

    final class PeopleSource {
        let names = ["Ada", "Grace", "Linus"]
        static let responses = SendableResponses<PeopleSource>()
            .on(TableMessages.numberOfRows) { me, _ in me.names.count }
            .on(TableMessages.titleForRow) { me, row in me.names[row] }
            .on(TableMessages.heightForHeader) { _, _ in 28 }
    }

    final class OrganizationSource {
        let organizations = ["ACM", "IEEE"]
        static let responses = SendableResponses<OrganizationSource>()
            .on(TableMessages.numberOfRows) { me, _ in me.organizations.count }
            .on(TableMessages.titleForRow) { me, row in me.organizations[row] }
    }

    final class EmptySource {
        static let responses = SendableResponses<EmptySource>()
            .on(TableMessages.numberOfRows) { _, _ in 0 }
    }

    final class SearchBar { var selectedScope = Scope.people }

    final class SearchController {
        let searchBar = SearchBar()
        let router: DelegateRouter<Scope>

        init() {
            let searchBar = self.searchBar
            router = DelegateRouter(key: { searchBar.selectedScope })
            router.route(.people, to: PeopleSource(), responses: PeopleSource.responses)
            router.route(.organizations, to: OrganizationSource(), responses: OrganizationSource.responses)
            router.setDefault(EmptySource(), responses: EmptySource.responses)
        }

        /// What the table view shows: its rows, and its header height (0 if not answered).
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
        screen.searchBar.selectedScope = .organizations
        #expect(screen.visibleRows() == ["ACM", "IEEE"])
        #expect(screen.headerHeight() == 0) // not answered: the seed's `return 0`
        screen.searchBar.selectedScope = .recent
        #expect(screen.visibleRows() == []) // no route: the default source
        #expect(screen.router.responds(to: TableMessages.numberOfRows))
        #expect(!screen.router.responds(to: TableMessages.titleForRow))
    }
}
