// The colour conversions made so far in this process, by colour source, so each distinct
// profile or set of tags becomes a Little CMS transform once.

import Synchronization

/// Conversions made so far, by colour source: a campaign of iPhone photos builds its Display P3
/// transform once. Bounded, so a batch of many differently profiled stills cannot grow it.
final class ColourConversionCache: Sendable {
    static let shared = ColourConversionCache()
    private static let capacity = 16
    private let entries = Mutex<[(key: String, conversion: ColourConversion)]>([])

    func conversion(for colour: StillColour) throws(ColourRefusal) -> ColourConversion {
        let key = colour.key
        if let hit = entries.withLock({ list in list.first { $0.key == key }?.conversion }) { return hit }
        // Built outside the lock: two threads may build the same one, and one of them is kept.
        let made = try ColourConversion(colour)
        return entries.withLock { list in
            if let raced = list.first(where: { $0.key == key }) { return raced.conversion }
            if list.count == Self.capacity { list.removeFirst() }
            list.append((key, made))
            return made
        }
    }
}
