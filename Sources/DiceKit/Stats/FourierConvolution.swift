#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The convolution of two long probability arrays by fast Fourier transform: O(*M* log *M*)
/// for a transform of *M* points, against O(*n*·*m*) for the flat convolution.
///
/// Doubles carry a rounding error of about 1e-16 of the largest probability into every slot,
/// so slots below `noiseFloor` of the largest are set to 0: the far tails, whose mass is below
/// the cut `LargeSum` allows anyway. Both transforms charge the meter stage by stage, so a long
/// one is abandoned within a stage when the host asks to stop.
enum FourierConvolution {
    /// Slots below this fraction of the largest slot are rounding noise.
    static let noiseFloor = 1e-15

    /// The work charged for a transform of `size` points: a step (a few nanoseconds) per
    /// butterfly, `size / 2` of them per stage, and the reordering.
    static func transformWork(size: Int) -> Int {
        WorkMeter.product(size / 2 + 1, size.trailingZeroBitCount) + size
    }

    /// The work of `convolve(a, b)`: two transforms and the pointwise product.
    static func work(_ n: Int, _ m: Int) -> Int {
        let size = transformSize(n + m - 1)
        return WorkMeter.product(transformWork(size: size), 2) + size
    }

    /// The smallest power of two at least `count`.
    static func transformSize(_ count: Int) -> Int {
        var size = 1
        while size < count { size <<= 1 }
        return size
    }

    /// `a` convolved with `b` (both nonempty), slots under the noise floor set to 0.
    static func convolve(_ a: [Double], _ b: [Double], meter: inout WorkMeter) throws(StatsFailure) -> [Double] {
        let count = a.count + b.count - 1
        let size = transformSize(count)
        let table = Twiddles(size: size)
        var re = [Double](repeating: 0, count: size), im = [Double](repeating: 0, count: size)
        let squaring = a == b
        for index in a.indices { re[index] = a[index] }
        if !squaring { for index in b.indices { im[index] = b[index] } }
        try table.transform(&re, &im, meter: &meter)
        // The spectra of a and b from that of a + ib, multiplied; then conjugated, so that the
        // forward transform inverts it.
        try meter.charge(size)
        re.withUnsafeMutableBufferPointer { re in
            im.withUnsafeMutableBufferPointer { im in
                if squaring {
                    for k in 0..<size {
                        let x = re[k], y = im[k]
                        re[k] = x * x - y * y
                        im[k] = -(2 * x * y)
                    }
                    return
                }
                // k and size - k are read together and written together.
                for k in 0...(size / 2) {
                    let j = (size - k) & (size - 1)
                    let xr = re[k], xi = im[k], yr = re[j], yi = im[j]
                    // A_k = (Z_k + conj Z_j) / 2, B_k = (Z_k - conj Z_j) / 2i; C_j = conj C_k.
                    let ar = (xr + yr) / 2, ai = (xi - yi) / 2
                    let br = (xi + yi) / 2, bi = (yr - xr) / 2
                    let cr = ar * br - ai * bi, ci = ar * bi + ai * br
                    re[k] = cr
                    im[k] = -ci
                    re[j] = cr
                    im[j] = ci
                }
            }
        }
        try table.transform(&re, &im, meter: &meter)
        var result = [Double](repeating: 0, count: count)
        var largest = 0.0
        let scale = 1 / Double(size)
        for index in 0..<count {
            let p = re[index] * scale
            result[index] = p
            largest = Swift.max(largest, p)
        }
        let floor = largest * noiseFloor
        for index in 0..<count where result[index] < floor { result[index] = 0 }
        return result
    }

    /// The roots of unity of one transform size.
    struct Twiddles {
        let size: Int
        /// cos and -sin of 2πk/size for k in 0 ..< size/2.
        private var cosines: [Double], sines: [Double]

        /// Computes a quarter of the circle directly and the rest by symmetry, so each root
        /// is within an ulp or two of the true value.
        init(size: Int) {
            self.size = size
            let half = Swift.max(size / 2, 1)
            cosines = [Double](repeating: 1, count: half)
            sines = [Double](repeating: 0, count: half)
            guard size >= 4 else { return }
            let quarter = size / 4
            let step = 2 * Double.pi / Double(size)
            for k in 0...(quarter / 2) {
                cosines[k] = cos(step * Double(k))
                sines[k] = -sin(step * Double(k))
            }
            for k in (quarter / 2 + 1)..<quarter {
                // θ = π/2 − φ: cos θ = sin φ, sin θ = cos φ.
                cosines[k] = -sines[quarter - k]
                sines[k] = -cosines[quarter - k]
            }
            for k in quarter..<half {
                // θ = π/2 + φ: cos θ = −sin φ, sin θ = cos φ.
                cosines[k] = sines[k - quarter]
                sines[k] = -cosines[k - quarter]
            }
        }

        /// The forward transform of `re + i im`, in place (size points).
        func transform(_ re: inout [Double], _ im: inout [Double], meter: inout WorkMeter) throws(StatsFailure) {
            let n = size
            guard n > 1 else { return }
            // Bit-reversed order.
            try meter.charge(n)
            var j = 0
            for i in 1..<n {
                var bit = n >> 1
                while j & bit != 0 {
                    j ^= bit
                    bit >>= 1
                }
                j |= bit
                if i < j {
                    re.swapAt(i, j)
                    im.swapAt(i, j)
                }
            }
            var length = 2
            while length <= n {
                try meter.charge(n / 2)
                let half = length / 2, stride = n / length
                re.withUnsafeMutableBufferPointer { re in
                    im.withUnsafeMutableBufferPointer { im in
                        cosines.withUnsafeBufferPointer { cosines in
                            sines.withUnsafeBufferPointer { sines in
                                var start = 0
                                while start < n {
                                    for k in 0..<half {
                                        let wr = cosines[k &* stride], wi = sines[k &* stride]
                                        let u = start &+ k, v = u &+ half
                                        let vr = re[v] * wr - im[v] * wi
                                        let vi = re[v] * wi + im[v] * wr
                                        re[v] = re[u] - vr
                                        im[v] = im[u] - vi
                                        re[u] += vr
                                        im[u] += vi
                                    }
                                    start &+= length
                                }
                            }
                        }
                    }
                }
                length <<= 1
            }
        }
    }
}
