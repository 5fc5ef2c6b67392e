// The ordering buffer hands frames on strictly by index, whatever order they finish in.

import Dispatch
import Synchronization
import Testing
@testable import SlicePipeline

@Suite struct OrderingBufferTests {
    @Test func shuffledSubmissionsComeOutInOrder() {
        let delivered = Mutex<[Int]>([])
        let buffer = OrderingBuffer<Int> { index, value in
            delivered.withLock { $0.append(index) }
            #expect(value == index * 10)
        }
        var generator = SystemRandomNumberGenerator()
        let order = Array(0..<500).shuffled(using: &generator)
        DispatchQueue.concurrentPerform(iterations: order.count) { i in
            buffer.submit(order[i], order[i] * 10)
        }
        buffer.drain()
        #expect(delivered.withLock { $0 } == Array(0..<500))
        #expect(buffer.delivered == 500)
    }

    @Test func holdsFramesUntilTheGapIsFilled() {
        let delivered = Mutex<[Int]>([])
        let buffer = OrderingBuffer<Int> { index, _ in delivered.withLock { $0.append(index) } }
        for index in [3, 1, 2] { buffer.submit(index, index) }
        buffer.drain()
        #expect(delivered.withLock { $0 }.isEmpty)
        #expect(buffer.peakParked == 3)
        buffer.submit(0, 0)
        buffer.drain()
        #expect(delivered.withLock { $0 } == [0, 1, 2, 3])
    }
}
