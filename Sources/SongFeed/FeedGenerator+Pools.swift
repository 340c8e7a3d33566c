/// The names the generator draws from: a mix of real-looking artists, album words, genres with
/// the iTunes genre ids of the 2012 feeds, and record labels.
///
/// Accented, CJK and Korean names,
/// ampersands, apostrophes, `<`, `℗` and a slash are here on purpose.
enum Pools {
    static let artists = [
        "Serj Tankian", "Whitechapel", "The Tallest Man On Earth", "Eric Benét", "The Beach Boys",
        "Jesús Adrián Romero", "Kevin Costner & Modern West", "Linda McCartney & Paul McCartney",
        "MercyMe", "Frankie Ruiz", "Glee Cast", "Marco Antonio Solís", "Lisa Marie Presley",
        "Charlotte Gainsbourg", "Godsmack", "Krizz Kaliko", "Chase & Status & Sub Focus",
        "Nadia Ali & Spencer & Hill", "Beyoncé", "Sigur Rós", "Motörhead", "Björk", "Céline Dion",
        "Sinéad O'Connor", "Mötley Crüe", "Guns N' Roses", "AC/DC", "Zoë Keating", "Ólafur Arnalds",
        "宇多田ヒカル", "坂本龍一", "東京事変", "周杰倫", "椎名林檎", "안녕바다", "Perfume",
        "Simon & Garfunkel", "Hall & Oates", "Earth, Wind & Fire", "Florence + the Machine",
        "Of Monsters and Men", "Alabama Shakes", "Gotye", "Carly Rae Jepsen", "fun.",
        "Nicki Minaj", "Usher", "Jack White", "Norah Jones", "Maroon 5", "Santigold",
        "Dr. John", "Garbage", "Keane", "Regina Spektor", "Beach House", "Rufus Wainwright",
        "Joss Stone", "Dirty Projectors", "Hot Chip", "Bobby Womack", "Mariza", "Ibrahim Ferrer",
        "Amadou & Mariam", "Youssou N'Dour", "Mercedes Sosa", "Caetano Veloso", "João Gilberto",
        "Ludovico Einaudi", "Hélène Grimaud", "Anne-Sophie Mutter", "Herbie Hancock",
        "The Dø", "Françoise Hardy", "Zaz", "Stromae", "Die Ärzte", "Rammstein",
    ]

    static let albumStarts = [
        "Harakiri", "Blunderbuss", "Little Broken Hearts", "Tramp", "Devotion", "Born and Raised",
        "Port of Morrow", "Ram", "Storm & Grace", "Live & Inspired", "Bloom", "Wrecking Ball",
        "Valtari", "Banga", "Sweet Heart Sweet Light", "Not Your Kind of People", "Strangeland",
        "Locked Down", "The Hurt & The Healer", "There's No Leaving Now", "That's Why God Made the Radio",
        "Overexposed", "Some Nights", "Looking 4 Myself", "Living Things", "The Idler Wheel",
        "Mi Generación", "Soplando Vida", "Canções de Amor", "Café del Mar", "Noches de Añoranza",
        "東京の夜", "初恋", "花鳥風月", "사랑의 노래", "Ça ira", "Über alles", "Señales",
        "Love <3 Hate", "Rock & Roll Over", "B-Sides & Rarities", "Night Visions", "Red",
        "Babel", "Channel Orange", "Unorthodox Jukebox", "Kaleidoscope Dream", "Shields",
        "The Heist", "Boys & Girls", "Celebration Rock", "Attack on Memory", "Lonerism",
    ]

    static let albumEnds = [
        "(Deluxe Version)", "(Remastered)", "(Live At Buenos Aires, Argentina 2011)",
        "(Original Motion Picture Soundtrack)", "(Bonus Track Version)", "(Glee Cast Version)",
        "[feat. Takura]", "(feat. Charlie Fink of Noah & The Whale)", "(Remixes)", "Vol. 2",
        "(Édition Spéciale)", "(Acoustic)", "Live ℗ Remastered", "(2012 Mix)",
    ]

    static let albumSuffixes = ["- Single", "- EP"]

    static let genres = [
        Genre(name: "Rock", id: 21), Genre(name: "Pop", id: 14), Genre(name: "Alternative", id: 20),
        Genre(name: "Hip Hop/Rap", id: 18), Genre(name: "R&B/Soul", id: 15), Genre(name: "Country", id: 6),
        Genre(name: "Dance", id: 17), Genre(name: "Electronic", id: 7), Genre(name: "Jazz", id: 11),
        Genre(name: "Latino", id: 12), Genre(name: "Pop Latino", id: 1_116), Genre(name: "Metal", id: 1_153),
        Genre(name: "Christian & Gospel", id: 22), Genre(name: "Soundtrack", id: 16),
        Genre(name: "Singer/Songwriter", id: 10), Genre(name: "Reggae", id: 24),
        Genre(name: "Fitness & Workout", id: 50), Genre(name: "Comedy", id: 3),
        Genre(name: "Salsa y Tropical", id: 1_120), Genre(name: "J-Pop", id: 27), Genre(name: "K-Pop", id: 51),
        Genre(name: "Classical", id: 5), Genre(name: "World", id: 19), Genre(name: "Blues", id: 2),
    ]

    static let labels = [
        "Reprise Records", "Metal Blade Records, Inc.", "Epic Records", "RCA Records", "Dead Oceans",
        "Nonesuch Records Inc.", "Columbia Records", "Interscope Records", "Sub Pop Records",
        "Warner Bros. Records Inc.", "Universal Music Latino", "Sony Music Entertainment Japan",
        "XL Recordings Ltd", "Domino Recording Co Ltd", "Blue Note Records", "Deutsche Grammophon GmbH, Berlin",
        "Third Man Records", "Mute Records Ltd", "Big Machine Records, LLC", "Fueled By Ramen",
    ]
}
