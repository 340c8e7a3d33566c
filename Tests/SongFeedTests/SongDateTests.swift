import SongFeed
import Testing

@Suite("SongDate: the one date conversion every parser uses")
struct SongDateTests {
    @Test(arguments: [
        ("July 10, 2012", 2012, 7, 10),
        ("May 15, 2012", 2012, 5, 15),
        ("January 1, 1999", 1999, 1, 1),
        ("December 31, 2030", 2030, 12, 31),
        ("February 29, 2012", 2012, 2, 29),
        ("February 29, 2000", 2000, 2, 29),
        ("September 9, 2012", 2012, 9, 9),
        ("  June 5, 2012\n", 2012, 6, 5),
        ("July 10,2012", 2012, 7, 10),
        ("June   5,   2012", 2012, 6, 5),
        // Atom's im:releaseDate: the date as written, whatever the time and offset after "T".
        ("2013-06-24T00:00:00-07:00", 2013, 6, 24),
        ("2012-07-10", 2012, 7, 10),
        (" 2012-02-29T23:59:59Z\n", 2012, 2, 29),
    ])
    func parsesTheFeedForm(text: String, year: Int, month: Int, day: Int) {
        let date = SongDate(feedText: text)
        #expect(date == SongDate(year: year, month: month, day: day))
        #expect(date != nil)
    }

    @Test(arguments: [
        "", " ", "July", "July 10", "July 10 2012", "10 July 2012", "july 10, 2012", "JULY 10, 2012",
        "2012-7-10", "2012-07-1", "12012-07-10", "2012-07-10x", "2012-02-30", "2012/07/10", "2012-13-01", "2012-07",
        "Jul 10, 2012", "Julyy 10, 2012", "July 0, 2012", "July 32, 2012", "February 30, 2012", "February 29, 2013",
        "February 29, 1900", "April 31, 2012", "July 10, 12345", "July 100, 2012", "July 10, 2012 extra",
        "July -1, 2012", "July 10, -2012", "July 99999999999999999999999, 2012", "July 10, 0000",
        "Juli 10, 2012", "Ju\u{301}ly 10, 2012", "July 1\u{0}, 2012", "Septembers 1, 2012",
    ])
    func rejectsEverythingElse(text: String) {
        #expect(SongDate(feedText: text) == nil, "\"\(text)\" must not parse")
    }

    @Test func rejectsArbitraryBytesWithoutCrashing() {
        var state: UInt64 = 42
        for _ in 0..<2_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(state % 24) {
                state = state &* 6_364_136_223_846_793_005 &+ 1
                bytes.append(UInt8(truncatingIfNeeded: state >> 33))
            }
            _ = SongDate(feedText: bytes)
        }
    }

    @Test func partsMustBeARealDay() {
        #expect(SongDate(year: 2012, month: 13, day: 1) == nil)
        #expect(SongDate(year: 2012, month: 0, day: 1) == nil)
        #expect(SongDate(year: 0, month: 1, day: 1) == nil)
        #expect(SongDate(year: 2012, month: 6, day: 31) == nil)
        #expect(SongDate(year: 2012, month: 6, day: 30) != nil)
    }

    @Test func isoFormRoundTrips() throws {
        let date = try #require(SongDate(year: 2012, month: 7, day: 5))
        #expect(date.description == "2012-07-05")
        #expect(SongDate(iso: "2012-07-05") == date)
        #expect(date.feedText == "July 5, 2012")
        #expect(SongDate(feedText: date.feedText) == date)
        #expect(SongDate(iso: "2012-7-5") == nil)
        #expect(SongDate(iso: "2012-02-30") == nil)
    }

    @Test func ordersByCalendar() throws {
        let a = try #require(SongDate(year: 2012, month: 5, day: 15))
        let b = try #require(SongDate(year: 2012, month: 7, day: 10))
        #expect(a < b)
    }
}
