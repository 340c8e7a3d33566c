import GRDB

/// A row read by column name, each name's position found once for the row.
///
/// GRDB finds a column named in a subscript of a row fetched whole (`Row.fetchAll`, and every row
/// of the PostgreSQL store) by comparing the name, case-insensitively, with each of the row's
/// columns, for every value read: reading a sample's forty columns so took most of the time of
/// reading a run's history, a store's summaries or its runs' samples. The names here are matched
/// as they are written (the stores' columns are lowercase, and the queries name them so).
struct NamedRow {
    let row: Row
    private let positions: [String: Int]

    init(_ row: Row) {
        self.row = row
        var positions: [String: Int] = [:]
        positions.reserveCapacity(row.count)
        for (index, name) in row.columnNames.enumerated() where positions[name] == nil {
            positions[name] = index
        }
        self.positions = positions
    }

    /// The value of the named column (an optional type reads NULL as `nil`; a name the row does
    /// not have is read as GRDB reads it).
    subscript<Value: DatabaseValueConvertible>(_ name: String) -> Value {
        guard let index = positions[name] else { return row[name] }
        return row[index]
    }
}
