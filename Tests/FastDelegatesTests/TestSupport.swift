/// Every file of this target sees the shared fixtures and checkers without importing them.
@_exported import FastDelegatesTestSupport
