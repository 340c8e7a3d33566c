import Foundation

/// Small SVG charts for the HTML report: horizontal bars (with an optional interval) and lines.
///
/// Self-contained markup (no scripts, no fonts, no external references), well-formed XML.
enum SVGChart {
    /// One bar: a label, a value, optionally an interval around it, and the text shown at its end.
    struct Bar {
        var label: String
        var value: Double
        var low: Double?
        var high: Double?
        var text: String
        /// The colour key (the parser's name: a parser has the same colour in every chart).
        var key: String
    }

    /// A group of bars with its own heading and scale.
    struct Group {
        var title: String?
        var bars: [Bar]
    }

    /// One line of a line chart.
    struct Series {
        var name: String
        /// The points: x index, y value and tooltip.
        var points: [(x: Int, y: Double, tip: String)]
    }

    static let width = 760.0
    static let labelWidth = 130.0
    static let rightMargin = 150.0
    static let rowHeight = 26.0

    /// A stable colour per parser.
    static func colour(_ key: String) -> String {
        switch key {
        case "libxml2": return "#1b6ca8"
        case "expat": return "#2e8b57"
        case "foundation": return "#c8612b"
        case "null": return "#8a8a8a"
        // Every built-in parser and baseline its own colour (a hash could give two one colour).
        case "c-libxml2": return "#7fb3d5"
        case "c-expat": return "#82c99b"
        case "sink": return "#4d4d4d"
        case "memchr": return "#b8860b"
        case "libxml2-dom": return "#7b4fa3"
        case "libxml2-reader": return "#0b7285"
        case "foundation-stream": return "#e8a273"
        case "xmlcoder": return "#d6336c"
        case "swxmlhash": return "#5c7cfa"
        default:
            let palette = ["#7b4fa3", "#b8860b", "#d6336c", "#0b7285", "#5c7cfa"]
            let index = key.unicodeScalars.reduce(0) { ($0 &* 31 &+ Int($1.value)) & 0x7fff_ffff } % palette.count
            return palette[index]
        }
    }

    /// A bar chart of one untitled group of bars.
    static func bars(id: String, title: String, bars: [Bar], axisLabel: String) -> String {
        self.bars(id: id, title: title, groups: [Group(title: nil, bars: bars)], axisLabel: axisLabel)
    }

    /// Horizontal bars, one group after the other, each group scaled to its own largest value, or
    /// all to the largest of all when `sharedScale` (groups of one quantity, compared across groups).
    static func bars(id: String, title: String, groups: [Group], axisLabel: String, sharedScale: Bool = false)
        -> String
    {
        let largest = max(groups.flatMap(\.bars).map { max($0.value, $0.high ?? 0) }.max() ?? 0, 1e-12)
        let rows = groups.reduce(0) { $0 + $1.bars.count + ($1.title == nil ? 0 : 1) + 1 }
        let height = 40 + Double(rows) * rowHeight + 10
        var body = ""
        var y = 34.0
        // Wide enough for the longest label ("c-libxml2 (reference)"), at about 7 px a character.
        let longest = groups.flatMap(\.bars).map(\.label.count).max() ?? 0
        let labelWidth = min(260, max(Self.labelWidth, 16 + 7 * Double(longest)))
        let plotWidth = width - labelWidth - rightMargin
        for group in groups {
            if let heading = group.title {
                body += text(x: 8, y: y + 17, heading, attributes: ##"font-weight="bold""##)
                y += rowHeight
            }
            let top = sharedScale ? largest : max(group.bars.map { max($0.value, $0.high ?? 0) }.max() ?? 0, 1e-12)
            let scale = niceCeiling(top)
            // Grid lines and their values.
            for step in 0...4 {
                let value = scale * Double(step) / 4
                let x = labelWidth + plotWidth * Double(step) / 4
                body +=
                    ##"<line x1="\##(fmt(x))" y1="\##(fmt(y))" x2="\##(fmt(x))" y2="\##(fmt(y + Double(group.bars.count) * rowHeight))" stroke="#e3e3e3"/>"##
                body += text(
                    x: x, y: y + Double(group.bars.count) * rowHeight + 13, tick(value),
                    attributes: ##"text-anchor="middle" fill="#666" font-size="11""##)
            }
            for bar in group.bars {
                let barWidth = plotWidth * max(0, bar.value) / scale
                body += text(x: labelWidth - 8, y: y + 17, bar.label, attributes: ##"text-anchor="end""##)
                body +=
                    ##"<rect x="\##(fmt(labelWidth))" y="\##(fmt(y + 5))" width="\##(fmt(barWidth))" height="\##(fmt(rowHeight - 10))" fill="\##(colour(bar.key))"><title>\##(escape(bar.label)): \##(escape(bar.text))</title></rect>"##
                if let low = bar.low, let high = bar.high {
                    let x1 = labelWidth + plotWidth * low / scale
                    let x2 = labelWidth + plotWidth * high / scale
                    let middle = y + rowHeight / 2
                    body +=
                        ##"<path d="M\##(fmt(x1)) \##(fmt(middle))H\##(fmt(x2))M\##(fmt(x1)) \##(fmt(middle - 6))V\##(fmt(middle + 6))M\##(fmt(x2)) \##(fmt(middle - 6))V\##(fmt(middle + 6))" stroke="#222" stroke-width="1.5" fill="none"/>"##
                }
                let end = labelWidth + plotWidth * max(bar.value, bar.high ?? 0) / scale
                body += text(x: end + 6, y: y + 17, bar.text, attributes: ##"fill="#333""##)
                y += rowHeight
            }
            y += rowHeight
        }
        body += text(
            x: labelWidth + plotWidth / 2, y: height - 4, axisLabel,
            attributes: ##"text-anchor="middle" fill="#666" font-size="11""##)
        return svg(id: id, title: title, height: height, body: body)
    }

    /// A change point on a line chart: a dashed vertical line just before the first point at the new
    /// level, in its series' colour, with a short label and a tooltip.
    struct Mark {
        /// The x index of the first point at the new level.
        var x: Int
        /// The series' name (its colour).
        var key: String
        /// The label at the top, such as "+6.2%".
        var label: String
        var tip: String
    }

    /// Lines over a shared x axis of `labels` (say, runs), one per series, with `marks` drawn over them.
    static func lines(
        id: String, title: String, labels: [String], series: [Series], axisLabel: String, marks: [Mark] = []
    ) -> String {
        let height = 300.0
        let left = 70.0
        let right = width - 130
        let top = 20.0
        let bottom = height - 60
        let values = series.flatMap { $0.points.map(\.y) }
        let scale = niceCeiling(max(values.max() ?? 1, 1e-12))
        let count = max(labels.count, 1)
        func x(_ index: Int) -> Double {
            count == 1 ? (left + right) / 2 : left + (right - left) * Double(index) / Double(count - 1)
        }
        func y(_ value: Double) -> Double { bottom - (bottom - top) * value / scale }
        var body = ""
        for step in 0...4 {
            let value = scale * Double(step) / 4
            body +=
                ##"<line x1="\##(fmt(left))" y1="\##(fmt(y(value)))" x2="\##(fmt(right))" y2="\##(fmt(y(value)))" stroke="#e3e3e3"/>"##
            body += text(
                x: left - 6, y: y(value) + 4, tick(value),
                attributes: ##"text-anchor="end" fill="#666" font-size="11""##)
        }
        // At most about 8 x labels.
        let every = max(1, Int((Double(count) / 8).rounded(.up)))
        // The last label always, and no other label too close to it to be read.
        for (index, label) in labels.enumerated()
        where index == count - 1 || (index % every == 0 && count - 1 - index >= every) {
            body += text(
                x: x(index), y: bottom + 16, label, attributes: ##"text-anchor="middle" fill="#666" font-size="11""##)
        }
        for (number, mark) in marks.enumerated() {
            // Halfway from the run before; labels of marks at the same run step down.
            let at = count == 1 ? x(mark.x) : x(mark.x) - (right - left) / Double(count - 1) / 2
            let row = Double(marks[..<number].filter { $0.x == mark.x }.count)
            body +=
                ##"<g><title>\##(escape(mark.tip))</title><line x1="\##(fmt(at))" y1="\##(fmt(top))" x2="\##(fmt(at))" y2="\##(fmt(bottom))" stroke="\##(colour(mark.key))" stroke-width="1.5" stroke-dasharray="5 3"/>"##
            body += text(
                x: at + 3, y: top + 10 + row * 13, mark.label,
                attributes: ##"fill="\##(colour(mark.key))" font-size="11" font-weight="bold""##)
            body += "</g>"
        }
        for (number, line) in series.enumerated() {
            let points = line.points.map { "\(fmt(x($0.x))),\(fmt(y($0.y)))" }.joined(separator: " ")
            if line.points.count > 1 {
                body +=
                    ##"<polyline points="\##(points)" fill="none" stroke="\##(colour(line.name))" stroke-width="2"/>"##
            }
            for point in line.points {
                body +=
                    ##"<circle cx="\##(fmt(x(point.x)))" cy="\##(fmt(y(point.y)))" r="3.5" fill="\##(colour(line.name))"><title>\##(escape(point.tip))</title></circle>"##
            }
            body +=
                ##"<rect x="\##(fmt(right + 16))" y="\##(fmt(top + Double(number) * 20))" width="12" height="12" fill="\##(colour(line.name))"/>"##
            body += text(x: right + 34, y: top + Double(number) * 20 + 11, line.name)
        }
        body += text(
            x: (left + right) / 2, y: height - 24, axisLabel,
            attributes: ##"text-anchor="middle" fill="#666" font-size="11""##)
        return svg(id: id, title: title, height: height, body: body)
    }

    /// One line of an x–y chart: points at real x values, and the x values where it has no figure
    /// because it failed there (marked with a cross on the top edge, never left as a silent gap).
    struct XYSeries {
        var name: String
        var points: [(x: Double, y: Double, tip: String)]
        var failures: [(x: Double, tip: String)] = []
        /// Dashed (a reference line, such as the songs' own memory).
        var dashed = false
        /// The colour key (defaults to the name).
        var key: String? = nil
    }

    /// Lines on logarithmic x and y axes (both in powers of ten), one per series.
    static func logLog(
        id: String, title: String, series: [XYSeries], xLabel: String, yLabel: String, xTick: (Double) -> String = tick,
        yTick: (Double) -> String = tick
    ) -> String {
        let height = 340.0
        let xs: [Double] = series.flatMap { (line: XYSeries) -> [Double] in
            line.points.map(\.x) + line.failures.map(\.x)
        }.filter { $0 > 0 }
        let ys: [Double] = series.flatMap { (line: XYSeries) -> [Double] in line.points.map(\.y) }.filter { $0 > 0 }
        guard let xMin = xs.min(), let xMax = xs.max(), let yMin = ys.min(), let yMax = ys.max() else {
            return svg(id: id, title: title, height: 60, body: text(x: 8, y: 30, "No figures to draw."))
        }
        let frame = LogLogFrame(
            left: 78, right: width - 170, top: 30, bottom: height - 62, xRange: (xMin, xMax), yRange: (yMin, yMax))
        var body = frame.grid(xTick: xTick, yTick: yTick)
        for (number, line) in series.enumerated() { body += frame.draw(line, number: number) }
        body += text(
            x: (frame.left + frame.right) / 2, y: height - 28, xLabel,
            attributes: ##"text-anchor="middle" fill="#666" font-size="11""##)
        body += text(
            x: 14, y: (frame.top + frame.bottom) / 2, yLabel,
            attributes:
                ##"text-anchor="middle" fill="#666" font-size="11" transform="rotate(-90 14 \##(fmt((frame.top + frame.bottom) / 2)))""##
        )
        return svg(id: id, title: title, height: height, body: body)
    }

    /// The plot area of a log–log chart: its edges and the powers of ten its axes span.
    struct LogLogFrame {
        let left: Double, right: Double, top: Double, bottom: Double
        let x0: Double, x1: Double, y0: Double, y1: Double

        init(
            left: Double, right: Double, top: Double, bottom: Double, xRange: (Double, Double),
            yRange: (Double, Double)
        ) {
            self.left = left
            self.right = right
            self.top = top
            self.bottom = bottom
            x0 = floor(log10(xRange.0))
            x1 = max(ceil(log10(xRange.1)), x0 + 1)
            y0 = floor(log10(yRange.0))
            y1 = max(ceil(log10(yRange.1)), y0 + 1)
        }

        func x(_ value: Double) -> Double { left + (right - left) * (log10(value) - x0) / (x1 - x0) }
        func y(_ value: Double) -> Double { bottom - (bottom - top) * (log10(value) - y0) / (y1 - y0) }

        /// A grid line and a label at each power of ten.
        func grid(xTick: (Double) -> String, yTick: (Double) -> String) -> String {
            var body = ""
            for power in stride(from: x0, through: x1, by: 1) {
                let value = pow(10, power)
                body +=
                    ##"<line x1="\##(fmt(x(value)))" y1="\##(fmt(top))" x2="\##(fmt(x(value)))" y2="\##(fmt(bottom))" stroke="#e3e3e3"/>"##
                body += text(
                    x: x(value), y: bottom + 16, xTick(value),
                    attributes: ##"text-anchor="middle" fill="#666" font-size="11""##)
            }
            for power in stride(from: y0, through: y1, by: 1) {
                let value = pow(10, power)
                body +=
                    ##"<line x1="\##(fmt(left))" y1="\##(fmt(y(value)))" x2="\##(fmt(right))" y2="\##(fmt(y(value)))" stroke="#e3e3e3"/>"##
                body += text(
                    x: left - 6, y: y(value) + 4, yTick(value),
                    attributes: ##"text-anchor="end" fill="#666" font-size="11""##)
            }
            return body
        }

        /// A series: its line, its points, a cross on the top edge for each failure, its legend entry.
        func draw(_ line: XYSeries, number: Int) -> String {
            var body = ""
            let colour = colour(line.key ?? line.name)
            let drawn = line.points.filter { $0.x > 0 && $0.y > 0 }.sorted { $0.x < $1.x }
            if drawn.count > 1 {
                let points = drawn.map { "\(fmt(x($0.x))),\(fmt(y($0.y)))" }.joined(separator: " ")
                let dash = line.dashed ? ##" stroke-dasharray="6 4""## : ""
                body +=
                    ##"<polyline points="\##(points)" fill="none" stroke="\##(colour)" stroke-width="2"\##(dash)/>"##
            }
            for point in drawn {
                body +=
                    ##"<circle cx="\##(fmt(x(point.x)))" cy="\##(fmt(y(point.y)))" r="3.5" fill="\##(colour)"><title>\##(escape(point.tip))</title></circle>"##
            }
            for failure in line.failures where failure.x > 0 {
                let cx = x(failure.x), cy = top + 8 + Double(number) * 9
                body +=
                    ##"<path d="M\##(fmt(cx - 5)) \##(fmt(cy - 5))L\##(fmt(cx + 5)) \##(fmt(cy + 5))M\##(fmt(cx - 5)) \##(fmt(cy + 5))L\##(fmt(cx + 5)) \##(fmt(cy - 5))" stroke="\##(colour)" stroke-width="2.5"><title>\##(escape(failure.tip))</title></path>"##
            }
            let legendY = top + Double(number) * 20
            if line.dashed {
                body +=
                    ##"<line x1="\##(fmt(right + 16))" y1="\##(fmt(legendY + 6))" x2="\##(fmt(right + 28))" y2="\##(fmt(legendY + 6))" stroke="\##(colour)" stroke-width="2" stroke-dasharray="3 2"/>"##
            } else {
                body +=
                    ##"<rect x="\##(fmt(right + 16))" y="\##(fmt(legendY))" width="12" height="12" fill="\##(colour)"/>"##
            }
            return body + text(x: right + 34, y: legendY + 11, line.name + (line.failures.isEmpty ? "" : " (× failed)"))
        }
    }

    static func svg(id: String, title: String, height: Double, body: String) -> String {
        ##"<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="\##(escape(id))" role="img" aria-labelledby="\##(escape(id))-title" viewBox="0 0 \##(fmt(width)) \##(fmt(height))" width="\##(fmt(width))" height="\##(fmt(height))" font-family="system-ui, sans-serif" font-size="13"><title id="\##(escape(id))-title">\##(escape(title))</title>\##(body)</svg>"##
    }

    static func text(x: Double, y: Double, _ content: String, attributes: String = "") -> String {
        ##"<text x="\##(fmt(x))" y="\##(fmt(y))"\##(attributes.isEmpty ? "" : " " + attributes)>\##(escape(content))</text>"##
    }

    /// 1, 2, 2.5 or 5 times a power of ten, at or above `value`.
    static func niceCeiling(_ value: Double) -> Double {
        let power = pow(10, floor(log10(value)))
        for factor in [1.0, 2, 2.5, 5, 10] where factor * power >= value * 0.999_999 { return factor * power }
        return 10 * power
    }

    /// A power of ten of bytes: "100 B", "1 kB", "10 MB" (10³ steps, as the feed sizes are given).
    static func byteTick(_ value: Double) -> String {
        let units: [(Double, String)] = [(1e9, "GB"), (1e6, "MB"), (1e3, "kB")]
        for (scale, unit) in units where value >= scale { return "\(tick(value / scale)) \(unit)" }
        return "\(tick(value)) B"
    }

    /// A power of ten as a count: "100", "10k", "1M".
    static func countTick(_ value: Double) -> String {
        if value >= 1e6 { return "\(tick(value / 1e6))M" }
        if value >= 1e4 { return "\(tick(value / 1e3))k" }
        return tick(value)
    }

    /// An axis value, without trailing zeros ("12.5", "250", "0.2").
    static func tick(_ value: Double) -> String {
        String(format: "%g", value)
    }

    static func fmt(_ value: Double) -> String {
        String(format: "%.1f", value.isFinite ? value : 0)
    }

    /// Text for XML content and attribute values.
    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
