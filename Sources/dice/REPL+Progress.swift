#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DiceKit

/// A value handed from a job's thread to the REPL's, read only after the job ended.
final class Box<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// The session as the statements of a job left it, statement by statement.
final class Progress: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var session: Session
    private var succeeded = false
    private var lastStats: Outcome?

    init(_ session: Session) {
        self.session = session
        pthread_mutex_init(lock, nil)
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    func save(_ session: Session, succeeded: Bool = false) {
        pthread_mutex_lock(lock)
        self.session = session
        self.succeeded = succeeded
        pthread_mutex_unlock(lock)
    }

    /// Notes the last `stats` result shown, for `:svg`.
    func saveStats(_ outcome: Outcome) {
        pthread_mutex_lock(lock)
        lastStats = outcome
        pthread_mutex_unlock(lock)
    }

    /// The last `stats` result the job showed, if any.
    var stats: Outcome? {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return lastStats
    }

    var latest: (Session, Bool) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return (session, succeeded)
    }
}
