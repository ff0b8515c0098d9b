#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One piece of work (the statements of a REPL line) on a thread of its own, so the
/// thread that started it can stop waiting the moment Ctrl-C comes.
///
/// The work learns it was abandoned through `isAbandoned`, which its `shouldStop` reads:
/// it then stops at its next poll and unwinds on its own thread (freeing a large partial
/// result takes a moment), while the REPL is already back at the prompt and may run the
/// next statement beside it: a job shares nothing that the next one changes (it works on
/// its own copy of the session, and its output is gated off).
///
/// ```swift
/// let job = Job { job in work(stopWhen: { job.isAbandoned }) }
/// if !job.wait(until: { LineEditor.interruptRequested }) { print("interrupted") }
/// job.join()
/// ```
final class Job: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var finished = false
    private var abandoned = false
    private var thread: pthread_t?
    private var work: ((Job) -> Void)?

    /// Starts `work` on a new thread with a 512 MB stack (address space, like the main
    /// work's); runs it on this thread if no thread can be made.
    init(_ work: @escaping (Job) -> Void) {
        pthread_mutex_init(lock, nil)
        pthread_cond_init(changed, nil)
        self.work = work
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, largeStack)
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(&thread, &attributes, { context in
            guard let context else { return nil }
            Unmanaged<Job>.fromOpaque(context).takeRetainedValue().runWork()
            return nil
        }, context)
        if created == 0 {
            self.thread = thread
        } else {
            Unmanaged<Job>.fromOpaque(context).release()
            runWork()
        }
    }

    deinit {
        join()
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(lock)
        lock.deallocate()
        changed.deallocate()
    }

    private func runWork() {
        let work = self.work
        self.work = nil
        work?(self)
        pthread_mutex_lock(lock)
        finished = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(lock)
    }

    /// Whether the thread that started the work gave up on it: the work should stop.
    var isAbandoned: Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return abandoned
    }

    /// Whether the work has ended (the thread may still be on its way out); never waits.
    var isFinished: Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return finished
    }

    /// Waits until the work is done (true), or until `interrupted()` says so (false: the
    /// work is abandoned and `isAbandoned` becomes true). `interrupted` is asked every 10 ms.
    func wait(until interrupted: () -> Bool) -> Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        while !finished {
            if interrupted() {
                abandoned = true
                return false
            }
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            var deadline = now
            deadline.tv_nsec += 10_000_000
            if deadline.tv_nsec >= 1_000_000_000 {
                deadline.tv_sec += 1
                deadline.tv_nsec -= 1_000_000_000
            }
            _ = pthread_cond_timedwait(changed, lock, &deadline)
        }
        return true
    }

    /// Waits for the work's thread to end, however long it takes.
    func join() {
        guard let thread else { return }
        self.thread = nil
        if pthread_equal(thread, pthread_self()) != 0 {
            pthread_detach(thread)  // the last reference went away on the job's own thread
        } else {
            pthread_join(thread, nil)
        }
    }
}

/// Passes what a job prints (and logs) on until the job is abandoned; from then on it
/// drops it, so an abandoned job never prints over the prompt.
final class OutputGate: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var isOpen = true

    init() { pthread_mutex_init(lock, nil) }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// An output whose flushed bytes go to `output` (flushed at once) while the gate is open.
    func wrap(_ output: Output) -> Output {
        Output { [self] bytes in
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            guard isOpen else { return }
            output.write(bytes)
            output.flush()
        }
    }

    /// Runs `body` if the gate is still open, holding it open until `body` ends.
    func pass(_ body: () -> Void) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        if isOpen { body() }
    }

    /// Drops everything from now on; waits for a flush in progress to end.
    func close() {
        pthread_mutex_lock(lock)
        isOpen = false
        pthread_mutex_unlock(lock)
    }
}
