package dev.reprise.agent.runtime.ordering;

import java.util.Iterator;
import java.util.function.Function;
import java.util.stream.Stream;

import dev.reprise.agent.runtime.events.Divergence;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.events.Session;
import dev.reprise.agent.runtime.events.ThreadCtx;
import dev.reprise.core.config.Order;

/**
 * The main thread's synchronization while it runs alone ({@link SyncOrder#alone}): every action
 * and monitor acquisition it begins at depth 0 is relaxed and taken without opening an event
 * ({@link SyncOrder#take}), in a recording and in its replays alike. {@link #take} does that
 * without the context lookup ({@code Rt.current}) and the general path's tests: a recording of
 * {@code bench.Jython 3000} makes 10 million such events, nearly all of its synchronization.
 *
 * <p>{@link #aloneMain} is main's own context while it is the context main runs and main is
 * alone under RTO, with relaxed events counted and no chaos; otherwise {@code UNRECORDED}, whose
 * thread is none (null until main's first intercepted call). Only main writes it while the alone
 * phase lasts (opening its context, swapping to and from class initializers' contexts, and the
 * start that ends the phase, which resets it before the started thread runs, so that thread reads
 * {@code UNRECORDED}). Every other thread reads a context whose thread is not its own, and goes
 * the general way. Plain: a thread acts only on what it wrote itself.
 *
 * <p>Whether the current thread is main, and main is free to take its action, is one test of
 * one value ({@link #take}, {@link #takenAction}), not a branch per condition: C2 compiles a
 * branch that only ever went one way as a trap, and a thread other than main (a finalizer)
 * coming by late in the run took such traps in {@code SyncActions.enter} and {@code exit}, which
 * main then ran in slower code until C2 compiled them again. Main itself fails the one test
 * often (in the JDK's quiet calls, in class initializers), so it is compiled both ways.
 *
 * <p>No static initializer, and nothing here initializes {@code SyncOrder}: {@link #running} is
 * called while a thread's context is being attached, at depth 0, where the JDK code a class
 * initialization runs would be taken for the program's.
 */
public final class AloneMain {
    private static ThreadCtx aloneMain;
    /**
     * Main's thread while no other recorded thread has started under RTO, whatever context main
     * runs (its own or an application class initializer's, which replay runs on main too while
     * main is alone; a JDK initializer's orders nothing anyway), with or without chaos or counted
     * relaxed events, which a replay may not share with its recording; else null. The methods
     * {@link #copied} names run their unbracketed copy when this is the current thread. Only main
     * writes it while the alone phase lasts, as {@link #aloneMain}, and another thread never finds
     * its own thread here, so plain reads suffice.
     */
    public static Thread thread;

    private AloneMain() {
    }

    /** The current thread runs {@code ctx} now: its own recorded context, or a class initializer's ({@code Rt}). */
    static void running(ThreadCtx ctx) {
        if (ctx == ThreadCtx.UNRECORDED) {
            return;
        }
        boolean phase = Session.current().config().order() == Order.RTO && !Threads.othersStarted();
        boolean alone = phase && ctx.index == 0 && ctx.initializing == null && ctx.chaos == null && ctx.ev.countsRelaxed();
        aloneMain = alone ? ctx : ThreadCtx.UNRECORDED;
        ThreadCtx own = ctx;
        while (own.initializing != null) {
            own = own.outer;
        }
        thread = phase && own.index == 0 ? own.thread : null;
    }

    /** On main: a recorded thread other than main is starting, or a cleanup will run: main no longer runs alone. */
    static void ends(String why) {
        if (thread != null && !Session.current().replaying()) {
            String inside = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).walk(new CopyOnStack());
            if (inside != null) {
                Divergence.message("warning: " + why + " inside " + inside + ", whose actions are not"
                        + " ordered while main runs alone: the rest of that call is not ordered against the other thread."
                        + " If a replay diverges, record with --order to.");
            }
        }
        aloneMain = ThreadCtx.UNRECORDED;
        thread = null;
    }

    /**
     * Whether {@code instrument/AloneCopy} gives a bracketed method of the class (internal name)
     * with descriptor {@code desc} an unbracketed copy for main alone: the methods of
     * {@code ConcurrentHashMap} and its nested classes, save those given a function of
     * {@code java.util.function}, which run the program's code: a thread started there (a
     * {@code computeIfAbsent} that creates a worker) would end the alone phase mid-call. Keys'
     * {@code hashCode} and {@code equals} run in the copies too; {@link #ends} warns if a thread
     * starts there.
     */
    public static boolean copied(String className, String desc) {
        return (className.equals("java/util/concurrent/ConcurrentHashMap")
                || className.startsWith("java/util/concurrent/ConcurrentHashMap$"))
                && !desc.contains("Ljava/util/function/");
    }

    /** The innermost frame of main's stack that runs a method {@link #copied} names, or null. A class: no lambda to bootstrap. */
    private static final class CopyOnStack implements Function<Stream<StackWalker.StackFrame>, String> {
        @Override
        public String apply(Stream<StackWalker.StackFrame> frames) {
            for (Iterator<StackWalker.StackFrame> i = frames.iterator(); i.hasNext(); ) {
                StackWalker.StackFrame f = i.next();
                if (copied(f.getClassName().replace('.', '/'), f.getDescriptor())) {
                    return f.getClassName() + "." + f.getMethodName();
                }
            }
            return null;
        }
    }

    /**
     * Takes the action or monitor acquisition about to begin, as {@link SyncOrder#take} would, if
     * the current thread is main running alone at depth 0, outside the JDK's quiet calls, once
     * interception is active (main's context may be attached before). Returns main's context,
     * claimed: the caller marks its slot {@link SyncOrder#TAKEN} and calls
     * {@link SyncOrder#completedTaken} after the operation. Null, with nothing changed, leaves the
     * decision to the general path.
     */
    static ThreadCtx take() {
        ThreadCtx m = aloneMain;
        if (m == null || !Rt.active || (otherThan(m) | m.depth | m.quiet) != 0 || !m.ev.takeRelaxed()) {
            return null;
        }
        m.depth = 1;
        return m;
    }

    /**
     * Main's context if the current thread is main, running alone in it, and the action ending
     * now is one {@link #take} took, with no action begun inside it; else null.
     */
    static ThreadCtx takenAction() {
        ThreadCtx m = aloneMain;
        return m != null && (otherThan(m) | (m.actionSlot ^ SyncOrder.TAKEN) | m.actionNest) == 0 ? m : null;
    }

    /**
     * Zero only on {@code m}'s own thread: the part of {@link #take}'s and {@link #takenAction}'s
     * one test that names the thread. Another thread reads main's counts beside it while main
     * writes them; whatever it reads, its own id, not main's, makes the test fail.
     */
    private static long otherThan(ThreadCtx m) {
        return Rt.tid(Thread.currentThread()) ^ m.tid;
    }
}
