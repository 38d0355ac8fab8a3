import Foundation
import Synchronization

// MARK: - Money: the remote quota, reserved before a call and settled after it

extension RoutingEngine {
    /// Why remote must not be called now, or `nil` when it may be: a quota refusal earlier in
    /// this process, a daily quota that is spent, or a daily quota that cannot be counted because
    /// the ledger cannot be read (which then holds for the rest of the process, and is said once).
    func remoteBlocker() -> String? {
        if let refusal = remoteQuota.refusal { return refusal }
        guard let quota else { return nil }
        guard let ledger else { return ledgerFailed(nil) }
        do {
            // Spent and held alike, as the reservation before the call counts them.
            if let full = try ledger.standing(quota, engine: .remote).fullReason { return full }
        } catch {
            return ledgerFailed(error)
        }
        return nil
    }

    /// Closes remote for the rest of the process because the ledger cannot count the daily
    /// quota (fail closed), telling the user once; returns the reason.
    private func ledgerFailed(_ error: CacheError?) -> String {
        let cause = error.map { " (\($0.problem))" } ?? ""
        let reason =
            "treated as over its daily quota (\(quota?.description ?? "none")) because the usage ledger cannot be read "
                + "or written\(cause)"
        if remoteQuota.refuse(reason) {
            warn(
                "the remote engine is \(reason); make the cache directory writable, or set STUDYKIT_CACHE_DIR to one "
                    + "that is"
            )
        }
        return reason
    }

    /// One model call, metered so that nothing spent goes uncounted and nothing refused is
    /// asked again:
    /// - remote under a daily quota: one request and the token estimate (the prompt's estimate
    ///   plus the response reserve) are reserved in the ledger in the same transaction as the
    ///   check, or ``QuotaHeld`` is thrown before anything is sent;
    /// - after the call, the reservation is replaced by what was spent: the answer's usage for
    ///   the request that was answered, and the estimate for every other request the provider
    ///   may have billed (sent, then a timeout, a reset, an empty reply); each sent request is a
    ///   row of the ledger with its outcome. A call that sent nothing only releases its reservation;
    /// - remote refusing with `insufficient_quota` closes remote for the rest of the process.
    func metered(
        _ engine: any LanguageModel, _ request: GenerationRequest, key: AttemptKey, deadline: TimeBudget?,
        call: @escaping @Sendable () async throws -> RawResponse
    ) async throws -> RawResponse {
        if engine.kind == .remote, let refusal = remoteQuota.refusal { throw QuotaHeld(reason: refusal) }
        let estimate = Spending(
            requests: 1, tokensIn: TokenCount.estimate(for: request.instructions + "\n" + request.prompt).count,
            tokensOut: request.options.maximumResponseTokens ?? 0)
        let reservation = try reserve(
            engine, estimate: estimate, expiresAt: reservationExpiry(engine, deadline: deadline))
        let sent = SentRequestLog()
        do {
            let response = try await SentRequestLog.$current.withValue(sent) { try await withinBudget(deadline, call) }
            settle(
                reservation, engine: engine, key: key, sent: sent.requests, answer: response.usage, estimate: estimate)
            traceRequests(sent.requests, engine: engine.kind)
            return response
        } catch {
            settle(reservation, engine: engine, key: key, sent: sent.requests, answer: nil, estimate: estimate)
            traceRequests(sent.requests, engine: engine.kind)
            if engine.kind == .remote, case EngineError.quotaExceeded = error {
                _ = remoteQuota.refuse("the remote engine refused with a quota error earlier in this run")
            }
            throw error
        }
    }

    /// `--verbose`: each sent request a gateway or provider named, how it ended and, behind a
    /// gateway, which backend served it, so it can be found in their logs.
    private func traceRequests(_ requests: [SentRequest], engine: EngineKind) {
        for request in requests where request.requestID != nil || request.servedBy != nil {
            let status = request.status.map { " (http \($0))" } ?? ""
            let served = request.servedBy.map { ", served by \($0)" } ?? ""
            note(
                "\(engine.rawValue) request \(request.requestID ?? "without an id"): "
                    + "\(request.outcome.rawValue)\(status)\(served)"
            )
        }
    }

    /// When a reservation taken now stops counting if it is never settled (its process was
    /// killed): the call's deadline (the run's budget, never less than the second an attempt
    /// always gets, or the engine's own generation deadline, whichever comes first) plus
    /// ``reservationMargin``; without either, ``reservationLifetime`` from now.
    func reservationExpiry(_ engine: any LanguageModel, deadline: TimeBudget?) -> Date {
        let now = clock.now()
        let budgetLeft = deadline.map { max(1, $0.remaining(at: now)) }
        let seconds = [budgetLeft, engine.generationDeadline].compactMap { $0 }.min()
        return now.addingTimeInterval(seconds.map { $0 + Self.reservationMargin } ?? Self.reservationLifetime)
    }

    /// Added to a call's deadline before its reservation expires: the settlement after a call
    /// that ended at its deadline is written well within it.
    static let reservationMargin: TimeInterval = 60

    /// How long a reservation counts when its call has no deadline at all.
    static let reservationLifetime: TimeInterval = 3_600

    /// Holds the allowance of one remote request, or throws ``QuotaHeld``; `nil` when there is
    /// no quota to hold against (local, or no daily quota set).
    private func reserve(_ engine: any LanguageModel, estimate: Spending, expiresAt: Date) throws -> QuotaReservation? {
        guard engine.kind == .remote, let quota else { return nil }
        guard let ledger else { throw QuotaHeld(reason: ledgerFailed(nil)) }
        do {
            guard let reservation = try ledger.reserve(
                engine: .remote, tokens: estimate.tokensIn + estimate.tokensOut, quota: quota, expiresAt: expiresAt)
            else {
                let standing = try? ledger.standing(quota, engine: .remote)
                throw QuotaHeld(
                    reason: standing?.fullReason ?? "the remote daily quota (\(quota)) has no room for this request")
            }
            return reservation
        } catch let error as CacheError {
            throw QuotaHeld(reason: ledgerFailed(error))
        }
    }

    /// Replaces `reservation` with what the call spent, and records its sent requests.
    private func settle(
        _ reservation: QuotaReservation?, engine: any LanguageModel, key: AttemptKey, sent: [SentRequest],
        answer: Usage?,
        estimate: Spending
    ) {
        guard let ledger else { return }
        let (spent, records) = Self.spending(sent: sent, answer: answer, estimate: estimate, key: key, at: clock.now())
        if reservation == nil, spent.isZero { return }
        do {
            try ledger.settle(reservation, engine: engine.kind, spent: spent, requests: records)
        } catch {
            note("could not record usage: \(Self.reason(for: error))")
            // What was spent is not counted: with a quota, remote stays closed from here on.
            if engine.kind == .remote, quota != nil { _ = ledgerFailed(error) }
        }
    }

    /// What a call spent, from the requests it sent. The answered request counts its reported
    /// usage; every other one the provider may have billed counts `estimate`; an engine that
    /// sends nothing over HTTP (in process, scripted) counts one request with the answer's usage.
    static func spending(
        sent: [SentRequest], answer: Usage?, estimate: Spending, key: AttemptKey, at now: Date
    ) -> (Spending, [RequestRecord]) {
        guard !sent.isEmpty else {
            guard let answer else { return (Spending(), []) }
            return (Spending(requests: 1, tokensIn: answer.promptTokens, tokensOut: answer.completionTokens), [])
        }
        let answered = answer == nil ? nil : sent.lastIndex { $0.outcome == .answered }
        var spent = Spending()
        var records: [RequestRecord] = []
        for (index, request) in sent.enumerated() {
            var record = RequestRecord(
                key: key, outcome: request.outcome, status: request.status, tokensIn: 0, tokensOut: 0, estimated: false,
                at: now)
            if index == answered, let answer {
                (record.tokensIn, record.tokensOut) = (answer.promptTokens, answer.completionTokens)
            } else if request.mayBeBilled {
                (record.tokensIn, record.tokensOut, record.estimated) = (estimate.tokensIn, estimate.tokensOut, true)
            }
            if request.mayBeBilled { spent.requests += 1 }
            spent.tokensIn += record.tokensIn
            spent.tokensOut += record.tokensOut
            records.append(record)
        }
        return (spent, records)
    }
}

/// Warnings a router and its copies give once per run (a gateway's assumed window).
final class OnceWarnings: Sendable {
    private let given = Mutex<Set<String>>([])

    /// `true` the first time `key` is given only.
    func first(_ key: String) -> Bool { given.withLock { $0.insert(key).inserted } }
}

/// What this process knows about the remote quota: the reason remote is closed, once it is.
final class RemoteQuotaState: Sendable {
    private let closed = Mutex<String?>(nil)

    /// Why remote is closed for the rest of the process, or `nil`.
    var refusal: String? { closed.withLock { $0 } }

    /// Closes remote with `reason`; `true` the first time only (the caller says it once).
    func refuse(_ reason: String) -> Bool {
        closed.withLock { current in
            guard current == nil else { return false }
            current = reason
            return true
        }
    }
}

/// Remote was not called: its quota is refused, spent, or cannot be counted. Nothing was sent,
/// so it is no attempt of the model.
struct QuotaHeld: StudyKitError, Equatable {
    let reason: String
    var message: String { reason }
    var exitCode: ExitCode { .unavailable }
}
