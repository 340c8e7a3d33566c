import BenchResults
import Foundation

/// What a download worker reports: one entry per measured iteration.
package struct DownloadWorkerReport: Codable, Sendable {
    /// One measured iteration: the download, and for `conditional` the revalidation that followed.
    package struct Iteration: Codable, Sendable {
        package var download: DownloadMeasurement?
        /// `conditional` only: the second request, with `If-None-Match` and `If-Modified-Since`.
        package var revalidation: DownloadMeasurement?
        package var error: String?

        package init(
            download: DownloadMeasurement? = nil, revalidation: DownloadMeasurement? = nil, error: String? = nil
        ) {
            self.download = download
            self.revalidation = revalidation
            self.error = error
        }
    }

    package var parser: String
    package var url: String
    /// `SongDigest` of the songs of the last successful download.
    package var digest: String?
    package var iterations: [Iteration]
    /// The worker's own peak resident set over its whole life, bytes (``PeakMemory``).
    package var peakResidentBytes: Int?
    /// The peak of the worker's first download and parse, above the resident set just before it,
    /// bytes (``PeakMemory/Window``).
    package var parsePeakBytes: Int?

    package init(
        parser: String, url: String, digest: String?, iterations: [Iteration], peakResidentBytes: Int?,
        parsePeakBytes: Int?
    ) {
        self.parser = parser
        self.url = url
        self.digest = digest
        self.iterations = iterations
        self.peakResidentBytes = peakResidentBytes
        self.parsePeakBytes = parsePeakBytes
    }
}
