package dev.reprise.agent.runtime.identity;

import java.lang.invoke.MethodHandle;

/**
 * Whether the JVM has hashed an object whose monitor the current thread holds. Such an object's
 * header holds the lock, not the hash bits, and the JVM takes the monitor of a JDK synchronized
 * method that a call through a supertype reaches (a {@code ByteArrayOutputStream} written as an
 * {@code OutputStream}) without an event that would have hashed the object first: code the method
 * runs (a mock maker's advice woven into it) may so be the first to hash it. Left to the JVM, that
 * hash differed between a recording and its replays.
 *
 * <p>The hash bits are where the locking scheme keeps the header: JDK 17's stack lock points to
 * a lock record on the owner's stack and an inflated monitor's header to the monitor, each of
 * which holds the displaced header in its first word; the lightweight locks of later JDKs (JDK
 * 25's default) leave the hash bits in place. Which one applies is measured at start-up on locked
 * objects of known hash. Only the owner reads through a pointer: its lock record and its monitor
 * outlive the read.
 */
final class HeldHeaders {
    /** {@link #hashBits}' answer when the header cannot be read: the JVM may have hashed the object. */
    static final int UNKNOWN = -1;
    /** How many times a header the JVM is inflating, which briefly reads zero, is read again. */
    private static final int INFLATING_READS = 1000;

    /** Where a kind of lock keeps the hash bits: not known. */
    private static final int UNMEASURED = 0;
    /** ...in the locked header itself. */
    private static final int IN_PLACE = 1;
    /** ...in the first word of what the locked header points to. */
    private static final int DISPLACED = 2;

    private final MethodHandle word;
    private final int shift;
    /** Where a stack-locked (thin) header keeps the hash bits. */
    private final int thin;
    /** Where an inflated header keeps them. */
    private final int inflated;

    private HeldHeaders(MethodHandle word, int shift, int thin, int inflated) {
        this.word = word;
        this.shift = shift;
        this.thin = thin;
        this.inflated = inflated;
    }

    /**
     * Measures where a held lock keeps the header, given {@code word} ({@code Unsafe.getLong(o, offset)},
     * which with a null object reads an address) and the hash bits' position in a plain header.
     * A pointer is followed only if the locked header does not hold the hash in place.
     */
    static HeldHeaders measure(MethodHandle word, int shift) {
        HeldHeaders none = new HeldHeaders(word, shift, UNMEASURED, UNMEASURED);
        try {
            Object thinProbe = new Object();
            int thinHash = System.identityHashCode(thinProbe);
            int thin;
            synchronized (thinProbe) {
                thin = none.where(none.read(thinProbe), 0, thinHash);
            }
            Object inflatedProbe = new Object();
            int inflatedHash = System.identityHashCode(inflatedProbe);
            int inflated;
            synchronized (inflatedProbe) {
                inflatedProbe.wait(1); // a wait inflates the monitor
                inflated = none.where(none.read(inflatedProbe), 2, inflatedHash);
            }
            return new HeldHeaders(word, shift, thin, inflated);
        } catch (Throwable e) {
            return none;
        }
    }

    /** Where {@code mark}, the header of a locked object of identity hash {@code hash}, keeps it, if its lock bits are {@code lockBits}. */
    private int where(long mark, int lockBits, int hash) throws Throwable {
        if ((mark & 3) != lockBits) {
            return UNMEASURED;
        }
        if (bits(mark) == hash) {
            return IN_PLACE;
        }
        return address(mark) != 0 && bits(read(address(mark))) == hash ? DISPLACED : UNMEASURED;
    }

    /**
     * The identity hash bits of {@code o}, whose header read {@code mark}, which is not a plain
     * header: 0 if the JVM has not hashed it; {@link #UNKNOWN} if another thread holds a stack
     * lock on it, or its layout was not measured.
     */
    int hashBits(Object o, long mark) {
        if (!Thread.holdsLock(o)) {
            return unownedMonitorBits(o, mark);
        }
        try {
            for (int i = 0; i < INFLATING_READS; i++) {
                int where = (mark & 3) == 0 ? thin : monitorHeader(mark) ? inflated : UNMEASURED;
                if (where == IN_PLACE) {
                    return bits(mark);
                }
                if (where != DISPLACED) {
                    return UNKNOWN;
                }
                if (address(mark) != 0) {
                    return bits(read(address(mark)));
                }
                Thread.onSpinWait();
                mark = read(o);
            }
        } catch (Throwable e) {
            // unreadable: as if unmeasured
        }
        return UNKNOWN;
    }

    /**
     * The hash bits of {@code o}, whose header {@code mark} points to an inflated monitor this
     * thread does not hold. The JVM deflates an idle monitor at moments of its own, so whether an
     * object that was once locked still has one differs between a recording and its replays (a
     * replay's ordered entries wait in the monitor, which inflates it): left unknown, such an
     * object took the JVM's hash in one run and its deterministic value in another. The monitor
     * may be deflated and freed while it is read, so the read counts only if the object's header
     * still points to it afterwards; {@link #UNKNOWN} if it never does, or for a stack lock,
     * which another thread holds at this moment.
     */
    private int unownedMonitorBits(Object o, long mark) {
        if (inflated == IN_PLACE && monitorHeader(mark)) {
            return bits(mark);
        }
        if (inflated != DISPLACED) {
            return UNKNOWN;
        }
        try {
            for (int i = 0; i < INFLATING_READS && monitorHeader(mark) && address(mark) != 0; i++) {
                int bits = bits(read(address(mark)));
                long again = read(o);
                if (again == mark) {
                    return bits;
                }
                mark = again;
            }
        } catch (Throwable e) {
            // unreadable: as if unmeasured
        }
        return UNKNOWN;
    }

    /** Whether a header word points to an inflated monitor (lock bits 10). */
    static boolean monitorHeader(long mark) {
        return (mark & 3) == 2;
    }

    private long read(Object o) throws Throwable {
        return (long) word.invokeExact(o, 0L);
    }

    private long read(long address) throws Throwable {
        return (long) word.invokeExact((Object) null, address);
    }

    private int bits(long header) {
        return (int) (header >>> shift) & 0x7FFFFFFF;
    }

    /** The lock record or monitor a locked header points to: the header without its lock bits. */
    private static long address(long mark) {
        return mark & ~3L;
    }
}
