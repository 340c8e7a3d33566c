import GRDB

extension StatsDatabase {
    /// The schema: ``StoreMigration/all``'s steps, by name, each in its own transaction, with the
    /// SQL written for SQLite.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in StoreMigration.all {
            migrator.registerMigration(migration.name) { db in
                for statement in migration.sqlite { try db.execute(sql: statement) }
            }
        }
        return migrator
    }
}
