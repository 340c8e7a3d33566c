import BenchResults
import Foundation
import SongStore

/// The practices around the parse that an app chooses (`bench run --scenario paged,fields,gzip,
/// queue,store,read`): each is a set of cells, one per choice, named by the choice.
///
/// | scenario | cells | one iteration |
/// |---|---|---|
/// | `paged` | `paged-N` per page size | follow the next links from the first page of N songs to the end |
/// | `fields` | `fields-all`, `fields-songs` | the whole feed, without / with `?fields=` naming the song fields |
/// | `gzip` | `gzip-off`, `gzip-on` | the whole feed, `Accept-Encoding: identity` / `gzip` |
/// | `queue` | `queue-N`, `cancel-N` per width | every page through a queue of width N; `cancel`: cancel all once page 1's songs are in |
/// | `store` | `store-song-ordered`, `store-song-shuffled`, `store-batch-ordered`, `store-batch-shuffled` | parse the feed in memory, then write its songs to SQLite |
/// | `read` | `read-shared`, `read-per-screen`, `read-batch`, `read-faults`, `read-cache-default`, `read-cache-table` | an app's screens read the songs stored once (`SongShelf`) |
package enum Practice: Codable, Sendable, Equatable {
    case paged(pageSize: Int)
    case fields(selected: Bool)
    case gzip(on: Bool)
    case queue(width: Int, pageSize: Int, cancel: Bool)
    case store(SongStore.Plan)
    case read(SongShelf.Choice)

    /// The cell it is measured in.
    package var cell: CellScenario {
        switch self {
        case .paged(let size): return CellScenario(.paged, choice: String(size))
        case .fields(let selected): return CellScenario(.fields, choice: selected ? "songs" : "all")
        case .gzip(let on): return CellScenario(.gzip, choice: on ? "on" : "off")
        case .queue(let width, _, let cancel): return CellScenario(cancel ? .cancel : .queue, choice: String(width))
        case .store(let plan): return CellScenario(name: plan.description)
        case .read(let choice): return CellScenario(.read, choice: choice.rawValue)
        }
    }

    /// Whether its cells fetch over HTTP (all but `store` and `read`).
    package var usesNetwork: Bool {
        switch self {
        case .store, .read: return false
        case .paged, .fields, .gzip, .queue: return true
        }
    }

    /// Requests one iteration makes at most (for the worker's time limit).
    package func requests(entries: Int) -> Int {
        switch self {
        case .paged(let size): return max(1, (entries + size - 1) / size)
        case .queue(_, let size, _): return max(1, (entries + size - 1) / size)
        case .fields, .gzip, .store, .read: return 1
        }
    }
}
