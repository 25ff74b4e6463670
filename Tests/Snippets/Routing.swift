import FastDelegates

// A search bar with scope buttons, and one data source per scope.

@MainActor final class SearchBar {
    var scope = SearchScope.people
}

@MainActor final class PeopleSource {}
@MainActor final class OrganizationSource {}
@MainActor final class EmptySource {}

extension PeopleSource: @MainActor DelegateResponder {
    static let responses = Responses<PeopleSource>().on(Table.numberOfRows) { _, _ in 12 }
}
extension OrganizationSource: @MainActor DelegateResponder {
    static let responses = Responses<OrganizationSource>().on(Table.numberOfRows) { _, _ in 3 }
}
extension EmptySource: @MainActor DelegateResponder {
    static let responses = Responses<EmptySource>()
}

@MainActor let searchBar = SearchBar()
let section = 0
