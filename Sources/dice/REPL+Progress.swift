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

    var latest: (Session, Bool) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return (session, succeeded)
    }
}
