package conformance.coroutines

import kotlinx.coroutines.*
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.flow.*
import kotlinx.coroutines.sync.Mutex
import kotlinx.coroutines.sync.withLock
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.AtomicLong

/** Busy work whose result depends on its seed alone. */
fun cpuWork(seed: Int): Long {
    var x = seed.toLong() * 2654435761L
    var acc = 0L
    for (i in 0 until 20_000) {
        x = (x * 6364136223846793005L + 1442695040888963407L)
        acc += (x ushr 33) and 0xFF
    }
    return acc
}

/**
 * kotlinx.coroutines on its default dispatcher, whose scheduler keeps its parked-worker stack
 * and CPU permits in its worker threads' own fields: launched coroutines with delays, a channel
 * with four consumers, a flow across dispatchers, a mutex, timeouts, async fan-out and a
 * cancelled parent. Prints what each part computed.
 */
fun main() = runBlocking(Dispatchers.Default) {
    // 1. ~200 coroutines with CPU work + delays
    val results = ConcurrentHashMap<Int, Long>()
    val jobs = (0 until 200).map { i ->
        launch {
            delay((1 + i % 5).toLong())
            results[i] = cpuWork(i)
            delay((1 + (i * 7) % 5).toLong())
        }
    }
    jobs.joinAll()
    println("launch: count=${results.size} sum=${results.values.sum()}")

    // 2. Channel pipeline: producer -> 4 consumers
    val ch = Channel<Int>(capacity = 16)
    val consumed = ConcurrentHashMap<Int, MutableList<Int>>()
    val producer = launch {
        for (i in 1..1000) ch.send(i)
        ch.close()
    }
    val consumers = (0 until 4).map { c ->
        launch {
            val mine = mutableListOf<Int>()
            for (v in ch) {
                mine.add(v * v % 1009)
                if (v % 97 == 0) delay(1)
            }
            consumed[c] = mine
        }
    }
    producer.join(); consumers.joinAll()
    val all = consumed.values.flatten().sorted()
    println("channel: count=${all.size} sum=${all.sum()} first10=${all.take(10)}")

    // 3. Flow with buffer/map/filter/collect
    var flowSum = 0L
    val flowItems = mutableListOf<Int>()
    (1..500).asFlow()
        .onEach { if (it % 50 == 0) delay(1) }
        .buffer(32)
        .map { it * 3 }
        .flowOn(Dispatchers.Default)
        .filter { it % 2 == 0 }
        .collect { flowSum += it; if (flowItems.size < 10) flowItems.add(it) }
    println("flow: sum=$flowSum first=$flowItems")

    // 4. Mutex-protected counter
    val mutex = Mutex()
    var counter = 0
    (0 until 100).map { i ->
        launch {
            repeat(100) {
                mutex.withLock { counter++ }
                if (it % 25 == 0) yield()
            }
        }
    }.joinAll()
    println("mutex: counter=$counter")

    // 5. withTimeout on a slow operation
    val timeoutResult = try {
        withTimeout(50) {
            delay(5_000)
            "finished"
        }
    } catch (e: TimeoutCancellationException) {
        "timed out"
    }
    val fastResult = withTimeoutOrNull(2_000) { delay(2); "fast ok" }
    println("timeout: slow=$timeoutResult fast=$fastResult")

    // 6. async/await fan-out of 50
    val deferreds = (1..50).map { i ->
        async {
            delay((i % 5 + 1).toLong())
            cpuWork(i * 13) % 10_000 + i
        }
    }
    val awaited = deferreds.awaitAll()
    println("async: sum=${awaited.sum()} sortedFirst5=${awaited.sorted().take(5)}")

    // 7. structured cancellation
    val ticks = AtomicLong()
    val cleanedUp = AtomicLong()
    val parent = launch {
        repeat(10) { k ->
            launch {
                try {
                    while (true) {
                        delay(1)
                        ticks.incrementAndGet()
                    }
                } finally {
                    withContext(NonCancellable) { cleanedUp.incrementAndGet() }
                }
            }
        }
    }
    delay(30)
    parent.cancelAndJoin()
    println("cancel: parentCancelled=${parent.isCancelled} children=${parent.children.count()} cleanedUp=${cleanedUp.get()} ticked=${ticks.get() > 0}")
    println("done")
}
