import Foundation

/// Fixed-point text with `digits` decimals, for tables and CSV.
func fixed(_ value: Double, _ digits: Int) -> String {
    String(format: "%.\(digits)f", value)
}

/// A number with about three significant digits: 4.72, 37.1, 2731.
func readable(_ value: Double) -> String {
    if !value.isFinite { return "-" }
    if value >= 100 { return fixed(value, 0) }
    if value >= 10 { return fixed(value, 1) }
    return fixed(value, 2)
}
