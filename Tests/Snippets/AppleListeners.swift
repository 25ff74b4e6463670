import FastDelegates
import Foundation

// The table view and listeners of <doc:AppleDelegateProtocols>, over the UIKit stand-ins.

@MainActor let tableView = UITableView()
@MainActor let header = StretchyHeader()
@MainActor let analytics = Analytics()
@MainActor let zooming = ZoomingListener()
@MainActor func stretch(to offset: CGFloat) {}
@MainActor func log(_ indexPath: IndexPath) {}
