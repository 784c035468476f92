package corpus.juc;

import static corpus.juc.Interleavings.runs;
import static corpus.juc.Interleavings.together;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

import corpus.Expect;

/**
 * Atomic variables and VarHandles raced by three threads A, B, C, each line a result that only
 * the interleaving decides: tickets, folds that do not commute, compare-and-set retry loops and
 * their retries, slots claimed in atomic arrays and through an array VarHandle, values displaced
 * through field updaters, what a LongAdder and a LongAccumulator read while others add, a
 * VarHandle on this class's own fields, a spinning worker stopped by a volatile flag, an
 * object published through a volatile field, and what seven readers see of a field one thread
 * keeps writing.
 */
@Expect
public final class AtomicsAndVarHandles {
    private static final VarHandle TICKETS;
    private static final VarHandle FOLD;
    private static final VarHandle NOTE;
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(int[].class);

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TICKETS = lookup.findVarHandle(AtomicsAndVarHandles.class, "tickets", int.class);
            FOLD = lookup.findVarHandle(AtomicsAndVarHandles.class, "fold", int.class);
            NOTE = lookup.findVarHandle(AtomicsAndVarHandles.class, "note", String.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile int tickets;
    private volatile int fold;
    private volatile String note = "-";

    /** The target of the field updaters. */
    private static final class Counter {
        volatile int served;
        volatile String last = "-";
    }

    private static final AtomicIntegerFieldUpdater<Counter> SERVED =
            AtomicIntegerFieldUpdater.newUpdater(Counter.class, "served");
    private static final AtomicReferenceFieldUpdater<Counter, String> LAST =
            AtomicReferenceFieldUpdater.newUpdater(Counter.class, String.class, "last");

    public static void main(String[] args) throws Exception {
        atomics();
        arrays();
        fieldUpdaters();
        adders();
        new AtomicsAndVarHandles().varHandles();
        stopFlag();
        publication();
        readers();
    }

    static void atomics() throws Exception {
        AtomicInteger tickets = new AtomicInteger();
        AtomicLong fold = new AtomicLong(1);
        AtomicReference<String> chain = new AtomicReference<>("");
        AtomicInteger retries = new AtomicInteger();
        char[] byTicket = new char[240];
        together(3, (t, who) -> {
            for (int i = 0; i < 80; i++) {
                byTicket[tickets.getAndIncrement()] = who;
                fold.updateAndGet(v -> v * 31 + who);
                if (i % 4 == 0) {
                    while (true) {
                        String prev = chain.get();
                        Thread.yield();
                        if (chain.compareAndSet(prev, prev + who)) {
                            break;
                        }
                        retries.incrementAndGet();
                    }
                }
            }
        });
        System.out.println("AtomicInteger tickets: " + runs(new String(byTicket)));
        System.out.println("AtomicLong fold " + Long.toHexString(fold.get()) + ", AtomicReference chain "
                + runs(chain.get()) + " after " + retries.get() + " retries");
    }

    /** Slots claimed by compareAndSet; a non-commuting fold per slot; letters displaced by getAndSet. */
    static void arrays() throws Exception {
        AtomicIntegerArray claims = new AtomicIntegerArray(24);
        AtomicLongArray folds = new AtomicLongArray(4);
        AtomicReferenceArray<String> board = new AtomicReferenceArray<>(6);
        String[] displaced = new String[3];
        together(3, (t, who) -> {
            StringBuilder mine = new StringBuilder();
            for (int i = 0; i < 24; i++) {
                int slot = t == 0 ? i : t == 1 ? 23 - i : (i + 12) % 24;
                claims.compareAndSet(slot, 0, who);
                folds.accumulateAndGet(i % 4, who, (x, y) -> x * 7 + y);
                String prev = board.getAndSet(i % 6, String.valueOf(who));
                mine.append(prev == null ? "-" : prev);
                Thread.yield();
            }
            displaced[t] = mine.toString();
        });
        StringBuilder claimed = new StringBuilder();
        for (int i = 0; i < claims.length(); i++) {
            claimed.append((char) claims.get(i));
        }
        StringBuilder boardNow = new StringBuilder();
        for (int i = 0; i < board.length(); i++) {
            boardNow.append(board.get(i));
        }
        StringBuilder folded = new StringBuilder();
        for (int i = 0; i < folds.length(); i++) {
            folded.append(' ').append(Math.floorMod(folds.get(i), 100_000));
        }
        System.out.println("AtomicIntegerArray claims " + claimed + ", AtomicLongArray folds" + folded);
        System.out.println("AtomicReferenceArray board " + boardNow + ", displaced A:" + displaced[0] + " B:"
                + displaced[1] + " C:" + displaced[2]);
    }

    /** Each thread takes a ticket and then replaces the last visitor: by ticket, whom each visitor displaced. */
    static void fieldUpdaters() throws Exception {
        Counter counter = new Counter();
        String[] displacedByTicket = new String[150];
        together(3, (t, who) -> {
            for (int i = 0; i < 50; i++) {
                int ticket = SERVED.getAndIncrement(counter);
                displacedByTicket[ticket] = LAST.getAndSet(counter, String.valueOf(who));
                Thread.yield();
            }
        });
        System.out.println("field updaters: served " + counter.served + ", displaced by ticket "
                + runs(String.join("", displacedByTicket)) + ", last " + counter.last);
    }

    /** What the sum and the running maximum were when each thread got half-way. */
    static void adders() throws Exception {
        LongAdder adder = new LongAdder();
        LongAccumulator max = new LongAccumulator(Math::max, 0);
        AtomicInteger tickets = new AtomicInteger();
        long[] sumSeen = new long[3];
        long[] maxSeen = new long[3];
        together(3, (t, who) -> {
            for (int i = 0; i < 100; i++) {
                adder.increment();
                max.accumulate(tickets.incrementAndGet());
                if (i == 50) {
                    sumSeen[t] = adder.sum();
                    maxSeen[t] = max.get();
                }
                Thread.yield();
            }
        });
        System.out.println("LongAdder " + adder.sum() + " half-way A:" + sumSeen[0] + " B:" + sumSeen[1] + " C:"
                + sumSeen[2] + ", LongAccumulator max " + max.get() + " half-way A:" + maxSeen[0] + " B:" + maxSeen[1]
                + " C:" + maxSeen[2]);
    }

    /**
     * VarHandles on this object's fields: getAndAdd tickets, a compare-and-set fold, a note set
     * with release semantics and read back volatile; and slots of a plain int[] claimed through
     * an array element VarHandle.
     */
    void varHandles() throws Exception {
        char[] byTicket = new char[150];
        int[] slots = new int[30];
        String[] notes = new String[3];
        together(3, (t, who) -> {
            StringBuilder seen = new StringBuilder();
            for (int i = 0; i < 50; i++) {
                byTicket[(int) TICKETS.getAndAdd(this, 1)] = who;
                int v;
                do {
                    v = (int) FOLD.getVolatile(this);
                } while (!FOLD.compareAndSet(this, v, v * 3 + who));
                int slot = (i * 7 + t * 10) % 30;
                if (!SLOTS.compareAndSet(slots, slot, 0, (int) who)) {
                    SLOTS.getAndAdd(slots, slot, 0x100);
                }
                if (i % 5 == 0) {
                    NOTE.setRelease(this, String.valueOf(who));
                    Thread.yield();
                    seen.append((String) NOTE.getVolatile(this));
                }
            }
            notes[t] = seen.toString();
        });
        StringBuilder claimed = new StringBuilder();
        int extra = 0;
        for (int s : slots) {
            claimed.append((char) (s & 0xff));
            extra += s >> 8;
        }
        System.out.println("VarHandle tickets " + runs(new String(byTicket)) + ", fold " + fold);
        System.out.println("array VarHandle claims " + claimed + " (+" + extra + " later), notes read back A:"
                + notes[0] + " B:" + notes[1] + " C:" + notes[2]);
    }

    private static volatile boolean stop;
    private static volatile int progress;

    /** B spins on a volatile stop flag, counting the distinct progress values it sees A publish. */
    static void stopFlag() throws Exception {
        int[] distinct = new int[1];
        int[] last = new int[1];
        together(2, (t, who) -> {
            if (who == 'A') {
                for (int i = 1; i <= 50; i++) {
                    progress = i;
                    Thread.yield();
                }
                stop = true;
            } else {
                int seen = 0;
                while (!stop) {
                    Thread.onSpinWait();
                    int p = progress;
                    if (p != seen) {
                        distinct[0]++;
                        seen = p;
                    }
                }
                last[0] = progress;
            }
        });
        System.out.println("stop flag: spinner saw " + distinct[0] + " of 50 progress values, then " + last[0]);
    }

    private static volatile int generation;

    /**
     * A writes generations 1 to 30 of a volatile field while B to H read it until the last: each
     * reader reports how many reads saw which generation, which only the interleaving decides.
     * Seven readers, more than Reprise keeps per location since its last write.
     */
    static void readers() throws Exception {
        String[] seen = new String[8];
        together(8, (t, who) -> {
            if (who == 'A') {
                for (int g = 1; g <= 30; g++) {
                    generation = g;
                    Thread.sleep(1); // every reader reads each generation
                }
                return;
            }
            StringBuilder log = new StringBuilder();
            int last = -1;
            int times = 0;
            for (int g; (g = generation) < 30; Thread.yield()) {
                if (g != last && times > 0) {
                    log.append(last).append('x').append(times).append(' ');
                    times = 0;
                }
                last = g;
                times++;
            }
            seen[t] = log.append(last).append('x').append(times).toString();
        });
        StringBuilder out = new StringBuilder("readers of one field:");
        for (int t = 1; t < 8; t++) {
            out.append(' ').append((char) ('A' + t)).append(" [").append(seen[t]).append(']');
        }
        System.out.println(out);
    }

    private static final class Box {
        char maker;
        int a;
        int b;
        int sum;
    }

    private static volatile Box published;

    /** A and B each publish a box through a volatile field; C waits for one and checks it is whole. */
    static void publication() throws Exception {
        char[] firstSeen = new char[1];
        boolean[] whole = new boolean[1];
        together(3, (t, who) -> {
            if (who == 'C') {
                Box b;
                while ((b = published) == null) {
                    Thread.onSpinWait();
                }
                firstSeen[0] = b.maker;
                whole[0] = b.sum == b.a + b.b;
                return;
            }
            for (int i = 0; i < 3; i++) {
                Box b = new Box();
                b.maker = who;
                b.a = t * 100 + i;
                b.b = i * i;
                b.sum = b.a + b.b;
                published = b;
                Thread.yield();
            }
        });
        Box last = published;
        System.out.println("volatile publication: C first saw " + firstSeen[0] + "'s box (whole " + whole[0]
                + "), last published by " + last.maker + " a=" + last.a);
    }
}
