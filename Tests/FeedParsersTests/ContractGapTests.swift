@testable import FeedParsers
import Testing

/// Whether a gap can matter on a document is told from its bytes: the search finds its text
/// wherever it is, and nothing else.
@Suite("Contract gaps found in the document's bytes")
struct ContractGapTests {
    @Test func theSearchFindsTheTextAnywhereAndNothingElse() {
        func has(_ text: String, _ needle: StaticString) -> Bool { ContractGap.contains(Array(text.utf8), needle) }
        #expect(has("<!ENTITY a 'b'>", "<!ENTITY"))
        #expect(has("<r/><!ENTITY", "<!ENTITY"))
        // A false start just before the match, and a first byte that repeats.
        #expect(has("<<!<!ENTITY", "<!ENTITY"))
        #expect(!has("<!ENTIT", "<!ENTITY"))
        #expect(!has("<r>!ENTITY</r><!ENTITx", "<!ENTITY"))
        #expect(!has("", "<!ENTITY"))
        #expect(!has("<", "<!ENTITY"))
    }

    @Test func eachGapAppliesWhereItsBytesAre() {
        let plain = Array("<rss><channel><item><title>a</title></item></channel></rss>".utf8)
        #expect(!ContractGap.dtdEntities.applies(to: plain))
        #expect(!ContractGap.carriageReturnInCDATA.applies(to: plain))
        #expect(ContractGap.partialText.applies(to: plain))
        #expect(ContractGap.dtdEntities.applies(to: Array("<!DOCTYPE r [<!ATTLIST r a CDATA 'x'>]><r/>".utf8)))
        #expect(ContractGap.carriageReturnInCDATA.applies(to: Array("<r><![CDATA[a\r\nb]]></r>".utf8)))
        #expect(!ContractGap.carriageReturnInCDATA.applies(to: Array("<r><![CDATA[a\nb]]></r>".utf8)))
        #expect(!ContractGap.carriageReturnInCDATA.applies(to: Array("<r>a\r\nb</r>".utf8)))
    }
}
