package dev.reprise.agent.ops.threads;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.Prologue;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.events.ThreadCtx;
import dev.reprise.agent.runtime.ordering.Ordered;

/**
 * Monitors: {@code synchronized} blocks and methods (made blocks by {@code MonitorRewriter}) and
 * {@code Object.wait}. Each acquisition is an ordered event; releases need no event, since the
 * next acquisition's order implies them. Returning from {@code wait} re-acquires the monitor and
 * is ordered the same way; which timed waits expired follows from that order.
 */
public final class MonitorOps {
    /** Called by rewritten code before {@code monitorenter}: {@code (Object monitor, int site) -> Object claim}. */
    public static final String ENTER = "enter";
    /** Called by rewritten code after {@code monitorenter}: {@code (Object claim)}. */
    public static final String ENTERED = "entered";

    /**
     * JDK classes whose monitors programs share between threads: the console streams and the
     * synchronized collection wrappers, and the Timer's queue; and the cache of the jars that
     * {@code jar:} URLs open (a class loader's {@code getResourceAsStream}), whose first user
     * opens the jar, an operation in that thread's recording; and the JDBC driver registry, whose
     * first thread to take its lock scans the class path for drivers, file operations of its own.
     */
    public static final java.util.Set<String> JDK_CLASSES = java.util.Set.of(
            "java/io/PrintStream", "java/util/Collections$SynchronizedCollection",
            "java/util/Collections$SynchronizedList", "java/util/Collections$SynchronizedRandomAccessList",
            "java/util/Collections$SynchronizedSet", "java/util/Collections$SynchronizedSortedSet",
            "java/util/Collections$SynchronizedMap", "java/util/Collections$SynchronizedSortedMap",
            "java/util/Timer", "java/util/TimerThread", "sun/net/www/protocol/jar/JarFileFactory",
            "java/sql/DriverManager");

    private static final Op MONITOR = Op.withRelaxedTwin("sync.monitor");
    private static final Op INTERNAL_LOCK = Op.withRelaxedTwin("sync.internallock");
    private static final java.lang.invoke.MethodHandle INTERNAL_LOCK_LIVE = internalLock();
    private static final Op WAIT = Op.withRelaxedTwin("sync.wait");
    private static final int INTERRUPTED = 1;

    private MonitorOps() {
    }

    /** Not inlined into every synchronized block, like the action brackets ({@code SyncActions}). */
    @jdk.internal.vm.annotation.DontInline
    public static Object enter(Object monitor, int site) {
        return Ordered.beforeMonitor(MONITOR, site, monitor);
    }

    @jdk.internal.vm.annotation.DontInline
    public static void entered(Object claim) {
        Ordered.afterMonitor((dev.reprise.agent.runtime.events.ThreadCtx) claim);
    }

    private static java.lang.invoke.MethodHandle internalLock() {
        try {
            Class<?> c = Class.forName("jdk.internal.misc.InternalLock", false, null);
            return dev.reprise.agent.runtime.jdk.JdkMethods.special(c, "lock", java.lang.invoke.MethodType.methodType(void.class))
                    .asType(java.lang.invoke.MethodType.methodType(void.class, Object.class));
        } catch (ClassNotFoundException e) {
            return null; // JDK 17: the console streams use their monitors
        }
    }

    /** JDK 21+: the console streams lock an InternalLock rather than their monitor. */
    @Prologue(owner = "jdk/internal/misc/InternalLock", method = "lock", desc = "()V", optional = true)
    public static void internalLock(Object lock) throws Throwable {
        dev.reprise.agent.runtime.events.ThreadCtx claim = Ordered.beforeLock(INTERNAL_LOCK, 0, lock);
        try {
            INTERNAL_LOCK_LIVE.invokeExact(lock);
        } finally {
            Ordered.afterMonitor(claim);
        }
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "*", method = "wait", desc = "()V",
            alsoIn = {"java/util/TimerThread"})
    public static void waitForever(Object monitor, int site) throws InterruptedException {
        waitTimed(monitor, 0L, site);
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "*", method = "wait", desc = "(JI)V")
    public static void waitNanos(Object monitor, long millis, int nanos, int site) throws InterruptedException {
        if (nanos < 0 || nanos > 999_999) {
            monitor.wait(millis, nanos); // let the JDK reject the argument
        }
        waitTimed(monitor, millis + (nanos > 0 ? 1 : 0), site);
    }

    /**
     * {@code monitor.wait(millis)}. Recording waits for real, then logs the re-acquisition, whose
     * monitor is held again, and whether the wait was interrupted. Replay releases the monitor in
     * short real waits until its recorded turn, so the threads it waited for can run.
     */
    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "*", method = "wait", desc = "(J)V",
            alsoIn = {"java/util/TimerThread"})
    public static void waitTimed(Object monitor, long millis, int site) throws InterruptedException {
        ThreadCtx ctx = Rt.claimContext();
        if (ctx == null) {
            monitor.wait(millis);
            return;
        }
        Ev ev = Ordered.beginWait(ctx, WAIT, site, monitor);
        boolean interrupted = false;
        if (ev.recording()) {
            try {
                // The claim is held while waiting: nothing the JDK does inside is an event.
                monitor.wait(millis);
            } catch (InterruptedException e) {
                interrupted = true;
            } finally {
                // Holding the monitor again: the re-acquisition is recorded atomically with it.
                Ordered.recordReacquired(ev, monitor);
            }
            ev.i(interrupted ? INTERRUPTED : 0);
            ev.end();
        } else {
            try {
                Ordered.replayReacquire(ev, monitor, monitor::wait);
            } catch (Throwable t) {
                throw new IllegalStateException(t); // Object.wait throws nothing else here: the monitor is held
            }
            interrupted = ev.i(0) == INTERRUPTED;
            ev.end();
        }
        if (interrupted) {
            throw new InterruptedException();
        }
    }
}
