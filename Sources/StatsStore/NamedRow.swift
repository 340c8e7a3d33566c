import GRDB

/// A row read by column name, each name's position found once for the row.
///
/// GRDB finds a column named in a subscript of a row fetched whole (`Row.fetchAll`, and every row
/// of the PostgreSQL store) by comparing the name, case-insensitively, with each of the row's
/// columns, for every value read: reading a sample's forty columns so took most of the time of
/// reading a run's history, a store's summaries or its runs' samples. The names here are matched
/// as they are written (the stores' columns are lowercase, and the queries name them so).
struct NamedRow {
    /// The positions of a query's columns by name: found once, from its first row, for all its
    /// rows (``rows(_:)``).
    struct Positions {
        fileprivate let byName: [String: Int]
        fileprivate let names: [String]

        init(_ row: Row) {
            names = Array(row.columnNames)
            var byName: [String: Int] = [:]
            byName.reserveCapacity(names.count)
            for (index, name) in names.enumerated() where byName[name] == nil {
                byName[name] = index
            }
            self.byName = byName
        }
    }

    let row: Row
    private let positions: [String: Int]

    init(_ row: Row) {
        self.init(row, Positions(row))
    }

    /// A row of a query whose columns `positions` found, when its columns are those, in that
    /// order; another row has its own found. (The PostgreSQL store's rows are made from a
    /// dictionary: each row's columns come in an order of their own.)
    init(_ row: Row, _ positions: Positions) {
        self.row = row
        self.positions = row.columnNames.elementsEqual(positions.names) ? positions.byName : Positions(row).byName
    }

    /// The rows of one query, the positions of its columns found once.
    static func rows(_ rows: [Row]) -> [NamedRow] {
        guard let first = rows.first else { return [] }
        let positions = Positions(first)
        return rows.map { NamedRow($0, positions) }
    }

    /// The value of the named column (an optional type reads NULL as `nil`; a name the row does
    /// not have is read as GRDB reads it).
    subscript<Value: DatabaseValueConvertible>(_ name: String) -> Value {
        guard let index = positions[name] else { return row[name] }
        return row[index]
    }
}
