// Page faults, for the first-call rows of bench/run (D, F, S): how many a first call takes,
// and what one costs on this machine, so bench/results.md can say how much of a first call
// in a fresh process is the kernel mapping pages rather than DiceKit's own work.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The minor and major page faults of this process so far.
func pageFaults() -> Int {
    var usage = rusage()
    #if canImport(Glibc)
    let who = __rusage_who_t(RUSAGE_SELF.rawValue)
    #else
    let who = RUSAGE_SELF
    #endif
    guard getrusage(who, &usage) == 0 else { return 0 }
    return Int(usage.ru_minflt) + Int(usage.ru_majflt)
}

/// Runs `body` once, timed, with the page faults it took. The clock is read once before, so
/// its own first touches (its code, the vDSO's data) are not counted as the body's.
func timedFirstCall<T>(_ body: () throws -> T) rethrows -> (result: T, ns: Double, faults: Int) {
    _ = clock.now
    let faultsBefore = pageFaults()
    let start = clock.now
    let result = try body()
    let elapsed = nanoseconds(clock.now - start)
    return (result, elapsed, pageFaults() - faultsBefore)
}

/// ns per page fault, two ways: a fresh read-only mapping of this executable touched every
/// 64 KB, as code runs for the first time (the kernel maps up to 16 cached pages a fault);
/// and fresh anonymous memory touched every 4 KB, as the heap, the stack and the runtime's
/// caches grow.
func runFaultCost() {
    guard let file = faultCost(fileBacked: true), let anonymous = faultCost(fileBacked: false) else {
        fail("could not map memory to fault")
    }
    print("{\"mode\":\"fault-cost\",\"file_ns\":\(file.ns),\"file_faults\":\(file.faults),"
        + "\"anon_ns\":\(anonymous.ns),\"anon_faults\":\(anonymous.faults),"
        + "\"checksum\":\(file.checksum &+ anonymous.checksum)}")
}

private func faultCost(fileBacked: Bool) -> (ns: Double, faults: Int, checksum: Int)? {
    let length: Int
    let base: UnsafeMutableRawPointer?
    let stride: Int
    if fileBacked {
        let descriptor = open("/proc/self/exe", O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 0 else { return nil }
        length = Int(status.st_size)
        base = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor, 0)
        stride = 64 << 10
    } else {
        length = 8 << 20
        base = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        stride = 4 << 10
    }
    guard let base, base != MAP_FAILED else { return nil }
    defer { munmap(base, length) }
    let bytes = base.assumingMemoryBound(to: UInt8.self)
    // The bytes read are summed and printed, so the reads are not optimized away.
    let touched = timedFirstCall { () -> Int in
        var checksum = 0
        for offset in Swift.stride(from: 0, to: length, by: stride) {
            if fileBacked { checksum &+= Int(bytes[offset]) } else { bytes[offset] = 1 }
        }
        return checksum
    }
    guard touched.faults > 0 else { return nil }
    return (touched.ns / Double(touched.faults), touched.faults, touched.result)
}
