package dev.reprise.agent.runtime.jdk;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;

import jdk.internal.misc.Unsafe;

/**
 * The JDK's counter of thread ids. A replay gives each thread the program makes the id the
 * recording drew for it from this counter, without drawing; the threads only the replay makes
 * (the JDK's helpers, Reprise's own, those that run recorded cleanups) draw from it live, and so
 * would get ids the recording gave the program's threads. Two live threads of one id are not a
 * cosmetic fault: from JDK 24 a monitor's owner is its thread's id, so the two would hold every
 * monitor at once. A replay therefore moves the counter past every id a recording can hold, before
 * it makes a thread of its own.
 */
public final class ThreadIdCounter {
    /** Far beyond the ids of any recorded run (a run draws one per thread), far below overflow. */
    private static final long REPLAY_GAP = 1L << 40;

    /** JDK 21 and 25: the counter's address, which the JDK itself bumps with {@code Unsafe.getAndAddLong}. */
    private static final MethodHandle NEXT_ID_ADDRESS =
            JdkMethods.statikIfPresent("java.lang.Thread", "getNextThreadIdOffset", MethodType.methodType(long.class));

    private ThreadIdCounter() {
    }

    /**
     * On replay, once, before the replay makes a thread of its own. A JDK that keeps its counter
     * in neither place is left as it is: before JDK 24 an id owns no monitor.
     */
    public static void skipRecordedIds() {
        try {
            if (NEXT_ID_ADDRESS != null) {
                Unsafe.getUnsafe().getAndAddLong(null, (long) NEXT_ID_ADDRESS.invokeExact(), REPLAY_GAP);
                return;
            }
            // JDK 17: a static field that the synchronized Thread.nextThreadID increments.
            VarHandle seq = JdkMethods.staticFieldIfPresent(Thread.class, "threadSeqNumber", long.class);
            if (seq == null) {
                return;
            }
            synchronized (Thread.class) {
                seq.set((long) seq.get() + REPLAY_GAP);
            }
        } catch (Throwable e) {
            throw new IllegalStateException("cannot reach the JDK's thread id counter", e);
        }
    }
}
