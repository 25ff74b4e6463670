import Foundation

/// A hand-written SVG line chart of one scenario: median ns per dispatch against the number of
/// targets N, both axes logarithmic, one line per variant. FastDelegates' own variants are drawn
/// bold with filled markers, the peers thin, dashed and muted with hollow markers; every series
/// has its own colour and marker shape, named in a legend split into the two groups.
///
/// Variants that send from several threads at once are left out (and named under the legend):
/// on a loaded machine they measure the scheduler, and their outliers would squash every other
/// line; the tables keep them.
enum SVGChart {
    /// Strong colours for FastDelegates' variants.
    static let ownPalette = [
        "#1f5fbf", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#17becf", "#8c564b", "#e377c2",
        "#bcbd22", "#3b3b98",
    ]
    /// Muted colours for the peers.
    static let peerPalette = [
        "#7f7f7f", "#a0826d", "#7d98b3", "#9aab7c", "#b08ea8", "#c2a35a", "#6f9a96", "#b07f7f",
        "#8f8fbf", "#a3a35c",
    ]

    /// Marker shapes, cycled per group so neighbouring series differ in shape as well as colour.
    enum Marker: CaseIterable {
        case circle, square, diamond, triangleUp, triangleDown, plus, cross, hexagon
    }

    /// Whether a variant sends from several threads at once (left out of the chart).
    static func isMultithreaded(_ variant: String) -> Bool {
        variant.contains("threads")
    }

    /// Whether a variant is FastDelegates' own (drawn bold) rather than a peer.
    static func isOwn(_ variant: String) -> Bool {
        variant.hasPrefix("fastdelegates") || variant.hasPrefix("concurrent")
    }

    /// How one series is drawn.
    struct Style {
        let color: String
        let marker: Marker
        let own: Bool
    }

    /// One style per variant, in order: own and peers each cycle through their palette and markers.
    static func styles(_ variants: [String]) -> [String: Style] {
        var result: [String: Style] = [:]
        var ownIndex = 0, peerIndex = 0
        for variant in variants {
            let own = isOwn(variant)
            let index = own ? ownIndex : peerIndex
            let palette = own ? ownPalette : peerPalette
            result[variant] = Style(
                color: palette[index % palette.count],
                marker: Marker.allCases[index % Marker.allCases.count], own: own)
            if own { ownIndex += 1 } else { peerIndex += 1 }
        }
        return result
    }

    static func render(_ rows: [ResultRow], scenario: String = "tick") -> String {
        let measured = rows.filter { $0.scenario == scenario && $0.median_ns > 0 && $0.median_ns.isFinite }
        let data = measured.filter { !isMultithreaded($0.variant) }
        var omitted: [String] = []
        for row in measured where isMultithreaded(row.variant) && !omitted.contains(row.variant) {
            omitted.append(row.variant)
        }
        var variants: [String] = []
        for row in data where !variants.contains(row.variant) { variants.append(row.variant) }
        let style = styles(variants)
        let counts = Array(Set(data.map(\.targets))).sorted()

        let plotLeft = 80.0, plotTop = 56.0, plotWidth = 560.0, plotHeight = 400.0
        let legendLeft = plotLeft + plotWidth + 40
        let notes = floorNotes(measured)
        let legendRows = Double(variants.count + 2 + 2 * omitted.count + notes.count) * 20
        let width = legendLeft + 250
        let height = max(plotTop + plotHeight + 70, plotTop + legendRows + 20)

        // x: log N, padded half a step either side; y: whole decades around the data.
        let lowN = log10(Double(counts.first ?? 1)), highN = log10(Double(counts.last ?? 1))
        let padN = max((highN - lowN) * 0.06, 0.15)
        func x(_ n: Int) -> Double {
            plotLeft + plotWidth * (log10(Double(n)) - (lowN - padN)) / (highN - lowN + 2 * padN)
        }
        let values = data.map(\.median_ns)
        let lowDecade = floor(log10(values.min() ?? 1))
        let highDecade = max(ceil(log10(values.max() ?? 10)), lowDecade + 1)
        func y(_ value: Double) -> Double {
            plotTop + plotHeight * (1 - (log10(value) - lowDecade) / (highDecade - lowDecade))
        }

        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            viewBox="0 0 \(Int(width)) \(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(plotLeft)" y="24" font-size="16" font-weight="bold">\
            \(escape(scenario)): time per dispatch against targets N (median; log–log; lower is better)</text>

            """
        // Horizontal grid at each decade (minor lines at 2× and 5×), vertical grid at each N.
        var decade = lowDecade
        while decade <= highDecade {
            let value = pow(10, decade)
            svg += line(plotLeft, y(value), plotLeft + plotWidth, y(value), color: "#c8c8c8")
            svg += text(plotLeft - 8, y(value) + 4, label(value), anchor: "end")
            if decade < highDecade {
                for minor in [2.0, 5.0] {
                    svg += line(plotLeft, y(value * minor), plotLeft + plotWidth, y(value * minor), color: "#eeeeee")
                }
            }
            decade += 1
        }
        for n in counts {
            svg += line(x(n), plotTop, x(n), plotTop + plotHeight, color: "#eeeeee")
            svg += text(x(n), plotTop + plotHeight + 18, String(n), anchor: "middle")
        }
        // Peers first, so FastDelegates' lines are drawn on top.
        for variant in variants.filter({ !isOwn($0) }) + variants.filter(isOwn) {
            guard let series = style[variant] else { continue }
            let points = counts.compactMap { n in
                data.first { $0.variant == variant && $0.targets == n }.map { (n, $0.median_ns) }
            }
            let path = points.map { "\(f(x($0.0))),\(f(y($0.1)))" }.joined(separator: " ")
            svg += """
                <polyline points="\(path)" fill="none" stroke="\(series.color)" \
                stroke-width="\(series.own ? "3" : "1.5")"\(series.own ? "" : " stroke-dasharray=\"5 3\"") \
                stroke-linejoin="round" opacity="\(series.own ? "1" : "0.8")"/>

                """
            for (n, value) in points {
                svg += marker(series, x(n), y(value), title: "\(variant) N=\(n): \(readable(value)) ns")
            }
        }
        // Axes and their labels.
        svg += line(plotLeft, plotTop, plotLeft, plotTop + plotHeight, color: "black")
        svg += line(plotLeft, plotTop + plotHeight, plotLeft + plotWidth, plotTop + plotHeight, color: "black")
        svg += text(
            plotLeft + plotWidth / 2, plotTop + plotHeight + 42, "targets on the chain, N (log scale)",
            anchor: "middle")
        svg += """
            <text x="18" y="\(f(plotTop + plotHeight / 2))" text-anchor="middle" \
            transform="rotate(-90 18 \(f(plotTop + plotHeight / 2)))">time per dispatch (median, log scale)</text>

            """
        // Legend: FastDelegates, then the peers.
        var legendY = plotTop
        for (heading, own) in [("FastDelegates", true), ("peers", false)] {
            let group = variants.filter { isOwn($0) == own }
            guard !group.isEmpty else { continue }
            svg += "<text x=\"\(f(legendLeft))\" y=\"\(f(legendY + 4))\" font-weight=\"bold\">\(heading)</text>\n"
            legendY += 18
            for variant in group {
                guard let series = style[variant] else { continue }
                svg += """
                    <line x1="\(f(legendLeft))" y1="\(f(legendY))" x2="\(f(legendLeft + 28))" y2="\(f(legendY))" \
                    stroke="\(series.color)" stroke-width="\(own ? "3" : "1.5")"\
                    \(own ? "" : " stroke-dasharray=\"5 3\"")/>

                    """
                svg += marker(series, legendLeft + 14, legendY, title: variant)
                svg +=
                    "<text x=\"\(f(legendLeft + 36))\" y=\"\(f(legendY + 4))\""
                    + (own ? " font-weight=\"bold\"" : " fill=\"#555555\"") + ">\(escape(variant))</text>\n"
                legendY += 19
            }
            legendY += 12
        }
        for variant in omitted {
            svg += text(legendLeft, legendY + 4, "not drawn: \(variant)", anchor: "start", color: "#555555")
            svg += text(legendLeft, legendY + 20, "(several threads; see the table)", anchor: "start", color: "#555555")
            legendY += 38
        }
        if !notes.isEmpty {
            legendY += 6
            for (index, note) in notes.enumerated() {
                svg += text(
                    legendLeft, legendY + 4, note, anchor: "start", color: index.isMultiple(of: 2) ? "black" : "#555555"
                )
                legendY += index.isMultiple(of: 2) ? 16 : 22
            }
        }
        return svg + "</svg>\n"
    }

    /// The notes under the legend: the default weak path's and the concurrent chain's medians over
    /// the floors of a memory-safe zeroing hold (issue 23), two lines per pair that was measured.
    static func floorNotes(_ rows: [ResultRow]) -> [String] {
        var notes: [String] = []
        for variant in ["fastdelegates-weak", "concurrent-weak"] {
            for floor in ["zeroing-floor", "unowned-safe"] {
                let counts = Array(Set(rows.map(\.targets))).sorted()
                let cells = counts.compactMap { n -> String? in
                    guard let numerator = rows.first(where: { $0.variant == variant && $0.targets == n })?.median_ns,
                        let denominator = rows.first(where: { $0.variant == floor && $0.targets == n })?.median_ns,
                        denominator > 0
                    else { return nil }
                    return "\(n): \(fixed(numerator / denominator, 2))×"
                }
                guard !cells.isEmpty else { continue }
                notes.append("\(variant) / \(floor)")
                notes.append("N = " + cells.joined(separator: ", "))
            }
        }
        return notes
    }

    /// A marker centred at (`cx`, `cy`): filled for FastDelegates, hollow for peers.
    static func marker(_ style: Style, _ cx: Double, _ cy: Double, title: String) -> String {
        let r = style.own ? 5.0 : 4.5
        let paint =
            style.own
            ? "fill=\"\(style.color)\" stroke=\"white\" stroke-width=\"1\""
            : "fill=\"white\" stroke=\"\(style.color)\" stroke-width=\"1.5\""
        let titled = "<title>\(escape(title))</title>"
        func polygon(_ points: [(Double, Double)]) -> String {
            let list = points.map { "\(f(cx + $0.0 * r)),\(f(cy + $0.1 * r))" }.joined(separator: " ")
            return "<polygon points=\"\(list)\" \(paint)>\(titled)</polygon>\n"
        }
        switch style.marker {
        case .circle:
            return "<circle cx=\"\(f(cx))\" cy=\"\(f(cy))\" r=\"\(f(r))\" \(paint)>\(titled)</circle>\n"
        case .square:
            return polygon([(-0.85, -0.85), (0.85, -0.85), (0.85, 0.85), (-0.85, 0.85)])
        case .diamond:
            return polygon([(0, -1.2), (1.2, 0), (0, 1.2), (-1.2, 0)])
        case .triangleUp:
            return polygon([(0, -1.2), (1.1, 0.8), (-1.1, 0.8)])
        case .triangleDown:
            return polygon([(0, 1.2), (1.1, -0.8), (-1.1, -0.8)])
        case .plus:
            let a = 0.35, b = 1.1
            return polygon([
                (-a, -b), (a, -b), (a, -a), (b, -a), (b, a), (a, a), (a, b), (-a, b), (-a, a), (-b, a),
                (-b, -a), (-a, -a),
            ])
        case .cross:
            let a = 0.3, b = 1.0
            return polygon([
                (-b, -b + a), (-b + a, -b), (0, -a), (b - a, -b), (b, -b + a), (a, 0), (b, b - a),
                (b - a, b), (0, a), (-b + a, b), (-b, b - a), (-a, 0),
            ])
        case .hexagon:
            return polygon(
                (0..<6).map { k in
                    let angle = Double(k) * .pi / 3
                    return (1.1 * cos(angle), 1.1 * sin(angle))
                })
        }
    }

    private static func f(_ value: Double) -> String { String(format: "%.1f", value) }

    /// A decade of nanoseconds in the unit that keeps it short: 100 ns, 1 µs, 10 ms.
    static func label(_ nanoseconds: Double) -> String {
        for (unit, scale) in [("s", 1e9), ("ms", 1e6), ("µs", 1e3)] where nanoseconds >= scale {
            return String(format: "%g", (nanoseconds / scale).rounded()) + " " + unit
        }
        return String(format: "%g", nanoseconds) + " ns"
    }

    private static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, color: String) -> String {
        "<line x1=\"\(f(x1))\" y1=\"\(f(y1))\" x2=\"\(f(x2))\" y2=\"\(f(y2))\" stroke=\"\(color)\"/>\n"
    }

    private static func text(
        _ x: Double, _ y: Double, _ content: String, anchor: String, color: String = "black"
    ) -> String {
        "<text x=\"\(f(x))\" y=\"\(f(y))\" text-anchor=\"\(anchor)\" fill=\"\(color)\">\(escape(content))</text>\n"
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
