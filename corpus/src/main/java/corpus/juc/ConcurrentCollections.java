package corpus.juc;

import static corpus.juc.Interleavings.runs;
import static corpus.juc.Interleavings.together;

import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.atomic.AtomicInteger;

import corpus.Expect;

/**
 * Concurrent collections written by several threads at once, each line what the interleaving
 * made of them: the iteration order of a ConcurrentHashMap whose keys share one hash (a bin
 * keeps insertion order) and the trails merged into it, what an iterator saw while others were
 * writing, what each thread polled from a ConcurrentLinkedQueue and Deque and what was left,
 * merges into and polls from a ConcurrentSkipListMap, and for six blocking queues which consumer
 * got which producer's items.
 */
@Expect
public final class ConcurrentCollections {
    /** Six keys with one hash code ("Aa" and "BB" hash alike): one bin, in insertion order. */
    static final String[] KEYS = {"AaAaAa", "AaAaBB", "AaBBAa", "AaBBBB", "BBAaAa", "BBAaBB"};

    public static void main(String[] args) throws Exception {
        hashMap();
        iterationWhileWriting();
        linkedQueueAndDeque();
        skipListMap();
        handoff("ArrayBlockingQueue", new ArrayBlockingQueue<>(3));
        handoff("LinkedBlockingQueue", new LinkedBlockingQueue<>(3));
        handoff("LinkedBlockingDeque", new LinkedBlockingDeque<>(3));
        handoff("SynchronousQueue", new SynchronousQueue<>());
        handoff("PriorityBlockingQueue", new PriorityBlockingQueue<>());
        handoff("LinkedTransferQueue", new LinkedTransferQueue<>());
    }

    static String name(String key) {
        for (int i = 0; i < KEYS.length; i++) {
            if (KEYS[i].equals(key)) {
                return "k" + i;
            }
        }
        return key;
    }

    static void hashMap() throws Exception {
        Map<String, Character> first = new ConcurrentHashMap<>();
        Map<String, String> trails = new ConcurrentHashMap<>();
        Map<String, String> computed = new ConcurrentHashMap<>();
        together(3, (t, who) -> {
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < KEYS.length; i++) {
                    String key = KEYS[t == 0 ? i : t == 1 ? KEYS.length - 1 - i : (i + 3) % KEYS.length];
                    first.putIfAbsent(key, who);
                    trails.merge(key, String.valueOf(who), String::concat);
                    computed.compute(key, (k, v) -> v == null ? String.valueOf(who) : v.length() < 4 ? v + who : v);
                    Thread.yield();
                }
            }
        });
        StringBuilder out = new StringBuilder("ConcurrentHashMap putIfAbsent winners in iteration order:");
        first.forEach((k, v) -> out.append(' ').append(name(k)).append('=').append(v));
        out.append("; compute order:");
        computed.forEach((k, v) -> out.append(' ').append(name(k)).append('=').append(v));
        System.out.println(out);
        StringBuilder merged = new StringBuilder("ConcurrentHashMap merge trails:");
        for (String k : KEYS) {
            merged.append(' ').append(name(k)).append('=').append(trails.get(k));
        }
        System.out.println(merged);
    }

    /** A and B put 80 keys each while C iterates the map five times: what each pass saw. */
    static void iterationWhileWriting() throws Exception {
        Map<Integer, Character> live = new ConcurrentHashMap<>();
        AtomicInteger tickets = new AtomicInteger();
        StringBuilder passes = new StringBuilder();
        together(3, (t, who) -> {
            if (who == 'C') {
                for (int pass = 0; pass < 5; pass++) {
                    int entries = 0;
                    int fromA = 0;
                    for (Map.Entry<Integer, Character> e : live.entrySet()) {
                        entries++;
                        if (e.getValue() == 'A') {
                            fromA++;
                        }
                    }
                    passes.append(' ').append(entries).append('/').append(fromA);
                    Thread.yield();
                }
                return;
            }
            for (int i = 0; i < 80; i++) {
                live.put(tickets.getAndIncrement() * 7, who);
                if (i % 8 == 0) {
                    Thread.yield();
                }
            }
        });
        int fromA = (int) live.values().stream().filter(c -> c == 'A').count();
        System.out.println("ConcurrentHashMap iterated while written, entries/from A per pass:" + passes + "; at end "
                + live.size() + "/" + fromA);
    }

    /**
     * Three threads each offer 40 letters and poll one after every second offer, so a poll never
     * finds the queue empty; for the deque they offer at both ends and poll the last.
     */
    static void linkedQueueAndDeque() throws Exception {
        ConcurrentLinkedQueue<Character> queue = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedDeque<Character> deque = new ConcurrentLinkedDeque<>();
        String[] polledQ = new String[3];
        String[] polledD = new String[3];
        together(3, (t, who) -> {
            StringBuilder q = new StringBuilder();
            StringBuilder d = new StringBuilder();
            for (int i = 0; i < 40; i++) {
                queue.offer(who);
                if (i % 2 == 0) {
                    deque.offerFirst(who);
                } else {
                    deque.offerLast(Character.toLowerCase(who));
                }
                if (i % 2 == 1) {
                    q.append(queue.poll());
                    d.append(deque.pollLast());
                }
                Thread.yield();
            }
            polledQ[t] = q.toString();
            polledD[t] = d.toString();
        });
        StringBuilder leftQ = new StringBuilder();
        queue.forEach(leftQ::append);
        StringBuilder leftD = new StringBuilder();
        deque.forEach(leftD::append);
        System.out.println("ConcurrentLinkedQueue polled A:" + runs(polledQ[0]) + " B:" + runs(polledQ[1]) + " C:"
                + runs(polledQ[2]) + " left " + runs(leftQ));
        System.out.println("ConcurrentLinkedDeque polled A:" + runs(polledD[0]) + " B:" + runs(polledD[1]) + " C:"
                + runs(polledD[2]) + " left " + runs(leftD));
    }

    /** Merges into twelve keys, then the three threads poll the first entry four times each. */
    static void skipListMap() throws Exception {
        ConcurrentSkipListMap<Integer, String> map = new ConcurrentSkipListMap<>();
        together(3, (t, who) -> {
            for (int i = 0; i < 24; i++) {
                int key = t == 1 ? 11 - i % 12 : i % 12;
                map.merge(key, String.valueOf(who), String::concat);
                Thread.yield();
            }
        });
        StringBuilder merged = new StringBuilder("ConcurrentSkipListMap merges:");
        map.forEach((k, v) -> merged.append(' ').append(v));
        char[] polledBy = new char[12];
        together(3, (t, who) -> {
            for (int i = 0; i < 4; i++) {
                polledBy[map.pollFirstEntry().getKey()] = who;
                Thread.yield();
            }
        });
        System.out.println(merged + "; polled first by " + new String(polledBy) + ", left " + map.size());
    }

    /**
     * Producers P and Q put 24 numbered items each (P even, Q odd numbers); consumers x and y
     * take 24 each. A deque is put and taken at both ends. A transfer queue gets every second
     * item by transfer, the others by tryTransfer or, when no consumer was waiting, by put (lower
     * case: an item that was put).
     */
    static void handoff(String name, BlockingQueue<Integer> queue) throws Exception {
        String[] got = new String[2];
        AtomicInteger transferred = new AtomicInteger();
        together(4, (t, who) -> {
            if (t < 2) {
                for (int i = 0; i < 24; i++) {
                    int item = 2 * i + t;
                    if (queue instanceof LinkedTransferQueue) {
                        LinkedTransferQueue<Integer> tq = (LinkedTransferQueue<Integer>) queue;
                        if (i % 2 == 1) {
                            tq.transfer(item);
                        } else if (tq.tryTransfer(item)) {
                            transferred.incrementAndGet();
                        } else {
                            tq.put(item + 1000);
                        }
                    } else if (queue instanceof BlockingDeque && i % 2 == 1) {
                        ((BlockingDeque<Integer>) queue).putFirst(item);
                    } else {
                        queue.put(item);
                    }
                    Thread.yield();
                }
                return;
            }
            StringBuilder mine = new StringBuilder();
            for (int i = 0; i < 24; i++) {
                int item = queue instanceof BlockingDeque && i % 2 == 1
                        ? ((BlockingDeque<Integer>) queue).takeLast()
                        : queue.take();
                char producer = item % 2 == 0 ? 'P' : 'Q';
                mine.append(item >= 1000 ? Character.toLowerCase(producer) : producer);
                Thread.yield();
            }
            got[t - 2] = mine.toString();
        });
        System.out.println(name + ": x got " + got[0] + ", y got " + got[1] + (queue instanceof LinkedTransferQueue
                ? ", " + transferred.get() + " of 24 tryTransfers handed straight over" : ""));
    }
}
