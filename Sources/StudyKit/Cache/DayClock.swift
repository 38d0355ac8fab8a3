import Foundation

/// The seam through which the cache and the ledger learn the time and the local calendar day.
///
/// Injected so tests can pin a day and roll over to the next one. Not named `Clock`, which is
/// the standard library's protocol for measuring durations.
public protocol DayClock: Sendable {
    /// The current instant.
    func now() -> Date
    /// The time zone whose calendar day counts as "today" for the daily quota.
    var timeZone: TimeZone { get }
}

extension DayClock {
    /// Today's local calendar day.
    public var today: LedgerDay {
        LedgerDay(date: now(), timeZone: timeZone)
    }
}

/// The production clock: the system time in the process's current time zone.
public struct SystemDayClock: DayClock {
    /// Creates the system clock.
    public init() {}

    /// The system time.
    public func now() -> Date { Date() }

    /// The process's current time zone (honours `TZ`).
    public var timeZone: TimeZone { TimeZone.current }
}

/// A local calendar day, written `YYYY-MM-DD`: the unit the usage ledger counts in.
public struct LedgerDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The day as `YYYY-MM-DD`; ordered text sorts chronologically.
    public let text: String

    /// The calendar day on which `date` falls in `timeZone`.
    public init(date: Date, timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        text = Self.format(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
    }

    /// Parses `YYYY-MM-DD`.
    /// - Throws: ``CacheError/invalidDay(_:)`` when the text is not a real calendar date.
    public init(_ text: String) throws(CacheError) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { throw .invalidDay(text) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let components = DateComponents(year: year, month: month, day: day)
        // Reject 2025-02-30 and friends: the date must exist and round-trip unchanged.
        guard components.isValidDate(in: calendar) else { throw .invalidDay(text) }
        self.text = Self.format(year: year, month: month, day: day)
    }

    /// The `YYYY-MM-DD` text.
    public var description: String { text }

    /// Chronological order.
    public static func < (lhs: LedgerDay, rhs: LedgerDay) -> Bool { lhs.text < rhs.text }

    private static func format(year: Int, month: Int, day: Int) -> String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }
}
