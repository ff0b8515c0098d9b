import Foundation
import Testing

@testable import dice

/// A REPL statement's thread: the REPL stops waiting for it at Ctrl-C, and the next one runs
/// beside it while it unwinds.
@Suite struct JobTests {
    @Test func anAbandonedJobUnwindsBesideTheNext() {
        let release = DispatchSemaphore(value: 0)
        let unwound = DispatchSemaphore(value: 0)
        // Work slow to unwind: it sees it was abandoned, then takes until it is released.
        let first = Job { job in
            while !job.isAbandoned { usleep(1_000) }
            release.wait()
            unwound.signal()
        }
        #expect(!first.wait(until: { true }))
        #expect(first.isAbandoned)
        #expect(!first.isFinished)
        // The next job starts, runs and ends while the first is still unwinding.
        let ran = Box(false)
        let second = Job { _ in ran.value = true }
        #expect(second.wait(until: { false }))
        second.join()
        #expect(ran.value)
        #expect(!first.isFinished)
        release.signal()
        unwound.wait()
        first.join()
        #expect(first.isFinished)
    }

    @Test func aJobNotAbandonedIsWaitedFor() {
        let value = Box(0)
        let job = Job { job in
            usleep(20_000)
            value.value = job.isAbandoned ? -1 : 42
        }
        #expect(job.wait(until: { false }))
        #expect(job.isFinished)
        job.join()
        #expect(value.value == 42)
    }
}
