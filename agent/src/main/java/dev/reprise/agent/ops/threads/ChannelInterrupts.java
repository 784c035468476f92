package dev.reprise.agent.ops.threads;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;

import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * What an interrupt does to the interruptible channel its target is blocked on, which a replay,
 * delivering no interrupt, must do itself. {@code Thread.interrupt} hands the target's blocker
 * (set by the channel's {@code begin()}, cleared by its {@code end()}) the interrupt: on JDK 17
 * it closes the channel and notes the target; from JDK 21 it notes the target (a compare-and-set
 * of {@code AbstractInterruptibleChannel.interruptedTarget}), and the interrupter then closes the
 * channel ({@code postInterrupt}). The target's {@code end()} reads the note, and a noted target
 * closes the channel itself and throws {@code ClosedByInterruptException}: without the note it
 * takes another path ({@code corpus.net.JettyServe}'s acceptor, interrupted by the server's stop
 * while blocked in {@code accept}, diverged on JDK 25 that way). Whether the interrupt finds a
 * blocker is ordered: a channel's {@code begin()} and {@code end()} set and clear it through
 * {@code AbstractInterruptibleChannel.blockedOn}, an operation on the thread's own slot, where
 * interrupts of the thread are ordered too ({@code ThreadOps.blockedOn}).
 */
final class ChannelInterrupts {
    /** {@code Thread}'s blocker field, or null if this JDK has none we know. */
    private static final VarHandle BLOCKER;
    /** {@code Thread}'s lock guarding it. */
    private static final VarHandle LOCK;
    /** {@code (Object blocker, Thread target)void}. */
    private static final MethodHandle INTERRUPT;
    /** {@code (Object blocker)void}, or null before JDK 21. */
    private static final MethodHandle POST_INTERRUPT;
    /** {@code AbstractInterruptibleChannel.blockedOn} as {@code (Object)void}. */
    static final MethodHandle BLOCKED_ON_LIVE;

    static {
        VarHandle blocker = null;
        VarHandle lock = null;
        MethodHandle interrupt = null;
        MethodHandle post = null;
        MethodHandle blockedOn = null;
        // JDK 21 and later: nioBlocker and interruptLock; JDK 17: blocker and blockerLock.
        for (String[] names : new String[][] {{"nioBlocker", "interruptLock"}, {"blocker", "blockerLock"}}) {
            try {
                Class<?> type = Thread.class.getDeclaredField(names[0]).getType();
                blocker = JdkMethods.field(Thread.class, names[0], type);
                lock = JdkMethods.field(Thread.class, names[1], Object.class);
                interrupt = JdkMethods.virtual(type, "interrupt", MethodType.methodType(void.class, Thread.class))
                        .asType(MethodType.methodType(void.class, Object.class, Thread.class));
                MethodHandle p = JdkMethods.virtualIfPresent(type, "postInterrupt", MethodType.methodType(void.class));
                post = p == null ? null : p.asType(MethodType.methodType(void.class, Object.class));
                blockedOn = JdkMethods.statik(java.nio.channels.spi.AbstractInterruptibleChannel.class, "blockedOn",
                        MethodType.methodType(void.class, type)).asType(MethodType.methodType(void.class, Object.class));
                break;
            } catch (NoSuchFieldException | IllegalStateException e) {
                blocker = null;
                lock = null;
                interrupt = null;
                post = null;
                blockedOn = null;
            }
        }
        BLOCKER = blocker;
        LOCK = lock;
        INTERRUPT = interrupt;
        POST_INTERRUPT = post;
        BLOCKED_ON_LIVE = blockedOn;
    }

    private ChannelInterrupts() {
    }

    /**
     * Hands {@code target}'s blocker, if it is blocked on an interruptible channel, the interrupt
     * another thread's {@code Thread.interrupt} would hand it, without touching the target's
     * interrupt status (whose reads replay as recorded).
     */
    static void deliver(Thread target) throws Throwable {
        if (BLOCKER == null || target == Thread.currentThread()) {
            return; // a thread interrupting itself: its channel's begin() sees its (replayed) status
        }
        Object blocker;
        synchronized (LOCK.get(target)) {
            blocker = BLOCKER.get(target);
            if (blocker != null) {
                INTERRUPT.invokeExact(blocker, target);
            }
        }
        if (blocker != null && POST_INTERRUPT != null) {
            POST_INTERRUPT.invokeExact(blocker);
        }
    }
}
