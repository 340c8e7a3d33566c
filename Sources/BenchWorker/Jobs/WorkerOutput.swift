import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a worker writes its report: file descriptor 3 when the parent opened it, else standard output.
package struct WorkerOutput: Sendable {
    let descriptor: Int32

    /// File descriptor ``WorkerProcess/resultDescriptor`` when it is open, else standard output.
    package static func resultChannel() -> WorkerOutput {
        WorkerOutput(
            descriptor: fcntl(WorkerProcess.resultDescriptor, F_GETFD) >= 0 ? WorkerProcess.resultDescriptor : 1)
    }

    /// Writes raw bytes.
    package func write(_ data: Data) throws {
        try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).write(contentsOf: data)
    }

    /// Writes a report as JSON.
    func report(_ value: some Encodable) throws {
        try write(JSONEncoder().encode(value))
    }
}
