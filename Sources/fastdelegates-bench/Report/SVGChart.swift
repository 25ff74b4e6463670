import Foundation

/// A hand-written SVG chart: grouped bars (one group per target count, one bar per variant)
/// of median ns per dispatch for one scenario, on a log-scale y axis, with labelled axes and
/// a legend.
enum SVGChart {
    static let palette = [
        "#1f77b4", "#aec7e8", "#ff7f0e", "#ffbb78", "#2ca02c", "#98df8a",
        "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
    ]

    static func render(_ rows: [ResultRow], scenario: String = "tick") -> String {
        let data = rows.filter { $0.scenario == scenario && $0.median_ns > 0 }
        var variants: [String] = []
        for row in data where !variants.contains(row.variant) { variants.append(row.variant) }
        let groups = Array(Set(data.map(\.targets))).sorted()

        let barWidth = 14.0, groupGap = 30.0
        let plotLeft = 80.0, plotTop = 50.0, plotHeight = 360.0
        let groupWidth = Double(max(variants.count, 1)) * barWidth + groupGap
        let plotWidth = max(Double(groups.count) * groupWidth, 200)
        let legendLeft = plotLeft + plotWidth + 30
        let width = legendLeft + 230, height = plotTop + plotHeight + 70

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
            \(escape(scenario)): ns per dispatch (median, log scale; lower is better)</text>

            """
        // Grid lines and y labels at each decade (and 2x, 5x minor lines).
        var decade = lowDecade
        while decade <= highDecade {
            let value = pow(10, decade)
            let gy = y(value)
            svg += line(plotLeft, gy, plotLeft + plotWidth, gy, color: "#bbbbbb")
            svg += text(plotLeft - 8, gy + 4, label(value), anchor: "end")
            if decade < highDecade {
                for minor in [2.0, 5.0] {
                    let my = y(value * minor)
                    svg += line(plotLeft, my, plotLeft + plotWidth, my, color: "#eeeeee")
                }
            }
            decade += 1
        }
        // Bars.
        for (groupIndex, targets) in groups.enumerated() {
            let groupLeft = plotLeft + Double(groupIndex) * groupWidth + groupGap / 2
            for (variantIndex, variant) in variants.enumerated() {
                guard let row = data.first(where: { $0.variant == variant && $0.targets == targets }) else {
                    continue
                }
                let top = y(row.median_ns)
                let x = groupLeft + Double(variantIndex) * barWidth
                svg += """
                    <rect x="\(f(x))" y="\(f(top))" width="\(f(barWidth - 1))" \
                    height="\(f(plotTop + plotHeight - top))" fill="\(palette[variantIndex % palette.count])">\
                    <title>\(escape(variant)) N=\(targets): \(readable(row.median_ns)) ns</title></rect>

                    """
            }
            svg += text(groupLeft + Double(variants.count) * barWidth / 2, plotTop + plotHeight + 18,
                        "N = \(targets)", anchor: "middle")
        }
        // Axes and their labels.
        svg += line(plotLeft, plotTop, plotLeft, plotTop + plotHeight, color: "black")
        svg += line(plotLeft, plotTop + plotHeight, plotLeft + plotWidth, plotTop + plotHeight, color: "black")
        svg += text(plotLeft + plotWidth / 2, plotTop + plotHeight + 45, "targets on the chain (N)", anchor: "middle")
        svg += """
            <text x="22" y="\(f(plotTop + plotHeight / 2))" text-anchor="middle" \
            transform="rotate(-90 22 \(f(plotTop + plotHeight / 2)))">ns per dispatch (log scale)</text>

            """
        // Legend.
        for (index, variant) in variants.enumerated() {
            let ly = plotTop + Double(index) * 20
            svg += """
                <rect x="\(f(legendLeft))" y="\(f(ly))" width="12" height="12" \
                fill="\(palette[index % palette.count])"/>

                """
            svg += text(legendLeft + 18, ly + 10, variant, anchor: "start")
        }
        return svg + "</svg>\n"
    }

    private static func f(_ value: Double) -> String { String(format: "%.1f", value) }

    private static func label(_ value: Double) -> String {
        value >= 1 ? String(format: "%.0f", value) : String(format: "%g", value)
    }

    private static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, color: String) -> String {
        "<line x1=\"\(f(x1))\" y1=\"\(f(y1))\" x2=\"\(f(x2))\" y2=\"\(f(y2))\" stroke=\"\(color)\"/>\n"
    }

    private static func text(_ x: Double, _ y: Double, _ content: String, anchor: String) -> String {
        "<text x=\"\(f(x))\" y=\"\(f(y))\" text-anchor=\"\(anchor)\">\(escape(content))</text>\n"
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
