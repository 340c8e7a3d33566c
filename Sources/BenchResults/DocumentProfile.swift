/// A document's measured shape, given beside its times in every report of the document workload:
/// the distance between parsers depends on it (markup against text, depth, attributes, references).
public struct DocumentProfile: Sendable, Equatable, Codable {
    /// The document's path, as the cells name it (``CellKey/feedPath``).
    public var document: String
    /// The document's SHA-256 (hex), as the cells have it (``CellKey/feedSHA256``): what finds the
    /// shape of a stored cell's document (`nil` in shapes written before it was kept).
    public var sha256: String?
    public var bytes: Int
    /// Start tags.
    public var elements: Int
    /// Attributes, namespace declarations not included.
    public var attributes: Int
    /// Character data with references resolved, in UTF-8 bytes.
    public var textBytes: Int
    /// The deepest element's depth (the root is 1).
    public var maximumDepth: Int
    /// Distinct namespace URIs declared.
    public var namespaces: Int
    /// Entity and character references as written.
    public var references: Int

    public init(
        document: String, bytes: Int, elements: Int, attributes: Int, textBytes: Int, maximumDepth: Int,
        namespaces: Int, references: Int, sha256: String? = nil
    ) {
        self.document = document
        self.sha256 = sha256
        self.bytes = bytes
        self.elements = elements
        self.attributes = attributes
        self.textBytes = textBytes
        self.maximumDepth = maximumDepth
        self.namespaces = namespaces
        self.references = references
    }

    /// Attributes per element.
    public var attributesPerElement: Double { elements == 0 ? 0 : Double(attributes) / Double(elements) }

    /// Character data's share of the document's bytes (above 1 is possible: references resolved
    /// to longer text, or a UTF-16 document whose text is counted in UTF-8).
    public var textShare: Double { bytes == 0 ? 0 : Double(textBytes) / Double(bytes) }

    /// References per 1,000 bytes.
    public var referencesPerKB: Double { bytes == 0 ? 0 : Double(references) * 1_000 / Double(bytes) }
}
