package dev.reprise.agent.ops.threads;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.Prologue;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.events.Session;
import dev.reprise.agent.runtime.identity.IdentityHashes;
import dev.reprise.agent.runtime.jdk.JdkMethods;
import dev.reprise.agent.runtime.ordering.Ordered;
import dev.reprise.agent.runtime.ordering.RaceWatch;
import dev.reprise.agent.runtime.ordering.SyncActions;
import dev.reprise.agent.runtime.ordering.Threads;
import dev.reprise.agent.runtime.session.RunInfo;

/**
 * Threads. Starting a thread names it by its creation path and is ordered (on one registry
 * resource), so creation indexes are the same on replay. A shutdown hook is named when it is
 * registered: the JVM starts it from an unrecorded thread at exit, but it is the program's.
 * Interrupts are ordered and recorded, and on replay never delivered for real: every operation an
 * interrupt affects (sleep, wait, join, the interrupt status) replays its recorded outcome, but
 * for the interruptible channel the target is blocked on, which replay interrupts itself
 * ({@link ChannelInterrupts}).
 * Sleeps and joins that ended in the recording end at once on replay.
 */
public final class ThreadOps {
    private static final Op START = Op.withRelaxedTwin("thread.start");
    private static final Op NEW_ID = Op.named("thread.newid");
    private static final Op INITIALIZER_ID = Op.named("thread.initializerid");
    private static final Op INITIALIZER_NAME = Op.named("thread.initializername");
    private static final Op SHUTDOWN_HOOK = Op.named("thread.shutdownhook");
    private static final Op RUNTIME_EXIT = Op.named("runtime.exit");
    private static final Op RUNTIME_HALT = Op.named("runtime.halt");
    private static final Op END = Op.named("thread.end");
    private static final MethodHandle EXIT_LIVE =
            JdkMethods.special(Thread.class, "exit", MethodType.methodType(void.class));
    /** JDK 21+: whether the JFR event for a virtual thread's end is on; null before. */
    private static final MethodHandle VIRTUAL_END_LIVE = JdkMethods.statikIfPresent(
            "jdk.internal.event.VirtualThreadEndEvent", "isTurnedOn", MethodType.methodType(boolean.class));
    private static final Op JOIN = Op.named("thread.join");
    private static final Op ALIVE = Op.named("thread.alive");
    private static final Op STATE = Op.named("thread.state");
    private static final Thread.State[] STATES = Thread.State.values();
    private static final Op SLEEP = Op.named("thread.sleep");
    private static final Op INTERRUPT = Op.withRelaxedTwin("thread.interrupt");
    private static final Op INTERRUPTED = Op.named("thread.interrupted");
    private static final Op BLOCKED_ON = Op.withRelaxedTwin("thread.blockedon");
    /** The resource that orders thread starts. */
    private static final Object REGISTRY = new Object();

    /** JDK 17's id counter, or null. */
    private static final MethodHandle NEXT_THREAD_ID_LIVE =
            JdkMethods.statikIfPresent("java.lang.Thread", "nextThreadID", MethodType.methodType(long.class));
    /** JDK 19+'s id counter, or null. */
    private static final MethodHandle NEXT_IDENTIFIER_LIVE =
            JdkMethods.statikIfPresent("java.lang.Thread$ThreadIdentifiers", "next", MethodType.methodType(long.class));
    private static final MethodHandle ID_LIVE =
            JdkMethods.special(Thread.class, "getId", MethodType.methodType(long.class));
    private static final MethodHandle NAME_LIVE =
            JdkMethods.special(Thread.class, "getName", MethodType.methodType(String.class));
    /** Read here, so that preparing this family initializes {@link ChannelInterrupts}, not a hook's first call. */
    private static final MethodHandle BLOCKED_ON_LIVE = ChannelInterrupts.BLOCKED_ON_LIVE;
    private static final String CARRIER = "jdk.internal.misc.CarrierThread";
    /** {@code (Thread, Object)void}: the container argument is unused. */
    private static final MethodHandle START_LIVE = MethodHandles.dropArguments(
            JdkMethods.special(Thread.class, "start", MethodType.methodType(void.class)), 1, Object.class);
    /** {@code (Thread, Object container)void}, or null before JDK 21. */
    private static final MethodHandle CONTAINER_START_LIVE = containerStart("java.lang.Thread");
    /** {@code (Thread, Object container)void}, or null before JDK 21. */
    private static final MethodHandle VIRTUAL_START_LIVE = containerStart("java.lang.VirtualThread");
    private static final MethodHandle ADD_HOOK_LIVE =
            JdkMethods.special(Runtime.class, "addShutdownHook", MethodType.methodType(void.class, Thread.class));
    private static final MethodHandle JOIN_LIVE =
            JdkMethods.special(Thread.class, "join", MethodType.methodType(void.class, long.class));
    private static final MethodHandle INTERRUPT_LIVE =
            JdkMethods.special(Thread.class, "interrupt", MethodType.methodType(void.class));
    private static final MethodHandle IS_INTERRUPTED_LIVE =
            JdkMethods.special(Thread.class, "isInterrupted", MethodType.methodType(boolean.class));
    private static final MethodHandle INTERRUPTED_LIVE =
            JdkMethods.statik(Thread.class, "interrupted", MethodType.methodType(boolean.class));

    private ThreadOps() {
    }

    /** {@code owner.start(ThreadContainer)} as {@code (Thread, Object)void}, or null before JDK 21. */
    private static MethodHandle containerStart(String owner) {
        try {
            Class<?> thread = Class.forName(owner, false, null);
            Class<?> container = Class.forName("jdk.internal.vm.ThreadContainer", false, null);
            MethodHandle h = JdkMethods.specialIfPresent(thread, "start", MethodType.methodType(void.class, container));
            return h == null ? null : h.asType(MethodType.methodType(void.class, Thread.class, Object.class));
        } catch (ClassNotFoundException e) {
            return null; // before JDK 21
        }
    }

    @Prologue(owner = "java/lang/Thread", method = "start", desc = "()V")
    public static void start(Thread t) throws Throwable {
        startPlatform(t, START_LIVE, null);
    }

    /**
     * JDK 21+: executors start their platform threads in a thread container (ThreadPoolExecutor,
     * ForkJoinPool), through a method {@link #start} does not see.
     */
    @Prologue(owner = "java/lang/Thread", method = "start", desc = "(Ljdk/internal/vm/ThreadContainer;)V",
            optional = true)
    public static void startInContainer(Thread t, Object container) throws Throwable {
        startPlatform(t, CONTAINER_START_LIVE, container);
    }

    private static void startPlatform(Thread t, MethodHandle live, Object container) throws Throwable {
        if (t.getClass().getName().equals(CARRIER)) {
            // A virtual-thread scheduler's carrier starts when the scheduler wants one: it is the
            // JVM's, like its helpers, and its start is no event of the program's.
            Rt.release();
            live.invokeExact(t, container);
            return;
        }
        started(t, live, container);
    }

    /** JDK 21+: a virtual thread starts through its own method, which {@link #start} does not see. */
    @Prologue(owner = "java/lang/VirtualThread", method = "start", desc = "(Ljdk/internal/vm/ThreadContainer;)V",
            optional = true)
    public static void startVirtual(Thread t, Object container) throws Throwable {
        started(t, VIRTUAL_START_LIVE, container);
    }

    /** Starts {@code t} through {@code live(t, container)} in an ordered event that names it. */
    private static void started(Thread t, MethodHandle live, Object container) throws Throwable {
        Ev ev = Ordered.enter(START, 0, 0, REGISTRY);
        try {
            long id = ev.j(ev.live() ? (long) ID_LIVE.invokeExact(t) : 0);
            // JDK helper threads (the common cleaner and the like) act for the JVM, not the program,
            // unless a library the program runs as its own starts them (HelperThreads).
            // So do threads a JDK class initializer starts (ClassInits): which thread runs it varies,
            // and its stream orders nothing. An application class initializer's stream is ordered:
            // the threads it starts are named after it.
            // Registering and starting hash the thread (Reprise's table, the JDK's thread
            // containers), which would fix the JVM's hash on it; the program may hash it too.
            IdentityHashes.assignBeforeLiveUse(t);
            if (!HelperThreads.actsForTheJvm(t) && !Rt.initializingJdkClass()) {
                Threads.registerChild(Rt.current(), t, id);
            }
            Threads.starting(t);
            live.invokeExact(t, container);
        } finally {
            Ordered.exit(ev);
            Threads.announced(t);
        }
    }

    /**
     * The JVM calls {@code exit()} when a thread terminates. Its event marks the end of the
     * thread's stream: a stream without it belongs to a thread the JVM's exit cut off, which on
     * replay waits at its stream's end for that exit.
     */
    @Prologue(owner = "java/lang/Thread", method = "exit", desc = "()V")
    public static void exit(Thread t) throws Throwable {
        Ev ev = Ev.begin(END, 0, 0);
        try {
            EXIT_LIVE.invokeExact(t);
        } finally {
            ev.end();
        }
    }

    /**
     * JDK 21+: a virtual thread ends without {@code exit()}. {@code VirtualThread.run} asks once,
     * last, while the thread is still mounted, whether JFR wants its end event: that call ends the
     * thread's stream like {@link #exit}. Without it the stream would end at the thread's last
     * logged event, dropping the relaxed run after it, and replay would hold the thread there,
     * short of its end, until the program exits.
     */
    @Prologue(owner = "jdk/internal/event/VirtualThreadEndEvent", method = "isTurnedOn", desc = "()Z",
            optional = true)
    public static boolean endVirtual() throws Throwable {
        Ev ev = Ev.begin(END, 0, 0);
        try {
            return (boolean) VIRTUAL_END_LIVE.invokeExact();
        } finally {
            ev.end();
        }
    }

    /**
     * {@code Runtime.exit}, which {@code System.exit} calls: an event of the exiting thread, the
     * status its digest. Without it, the relaxed events the thread counted since its last written
     * one were never written, and its replay, finding its stream ended there, waited for the exit
     * it was to make. In the prologue, so that an exit the JDK's code makes (a JDK tool's main, a
     * reflective call) is one too; the shutdown that follows runs on this thread, unclaimed, and
     * makes its own events.
     */
    @Prologue(owner = "java/lang/Runtime", method = "exit", desc = "(I)V", kind = Prologue.Kind.BEFORE)
    public static void exit(Runtime self, int status) {
        Ev.begin(RUNTIME_EXIT, 0, status).end();
        RunInfo.exitCalled(status);
    }

    /**
     * {@code Runtime.halt}: an event of the halting thread, the status its digest. The JVM dies at
     * once, so the recording is cut there, and the program's other threads may have recorded
     * events up to that moment. A replay's halting thread waits there, as at the end of its
     * stream, until the others replayed as far as theirs go; then the replay says where the
     * recording ends and halts with the recorded status ({@code RecordingEnd}). Before, it halted
     * at once, and a replay could lack lines the other threads printed before the halt.
     */
    @Prologue(owner = "java/lang/Runtime", method = "halt", desc = "(I)V", kind = Prologue.Kind.BEFORE)
    public static void halt(Runtime self, int status) {
        Ev ev = Ev.begin(RUNTIME_HALT, 0, status);
        boolean replaying = !ev.recording();
        ev.end();
        if (replaying) {
            Session.current().halting();
        }
    }

    @Prologue(owner = "java/lang/Runtime", method = "addShutdownHook", desc = "(Ljava/lang/Thread;)V")
    public static void addShutdownHook(Runtime self, Thread hook) throws Throwable {
        Ev ev = Ev.begin(SHUTDOWN_HOOK, 0, 0);
        try {
            long id = ev.j(ev.live() ? (long) ID_LIVE.invokeExact(hook) : 0);
            // The JDK keeps its hooks in an identity map and starts them at exit in its order,
            // which names their streams: the hook's hash must be Reprise's before the map takes
            // the JVM's, which differs between a recording and its replays.
            IdentityHashes.assignBeforeLiveUse(hook);
            ADD_HOOK_LIVE.invokeExact(self, hook);
            if (Rt.initializingJdkClass()) {
                int index = Threads.registerUnorderedChild(Rt.current(), hook, id, ev.recording() ? -1 : ev.i(0));
                if (index < 0) {
                    throw new IllegalStateException("the recording gives a shutdown hook an index no recording could have");
                }
                if (ev.recording()) {
                    ev.i(index);
                }
            } else {
                Threads.registerChild(Rt.current(), hook, id);
            }
        } catch (Throwable e) {
            throw ev.threw(e);
        } finally {
            ev.end();
            Threads.announced(hook);
        }
    }

    /** {@code join(millis)}; {@code join()} calls it. Replay joins for real only if the thread had ended. */
    @Prologue(owner = "java/lang/Thread", method = "join", desc = "(J)V")
    public static void join(Thread t, long millis) throws Throwable {
        Ev ev = Ev.begin(JOIN, 0, 0);
        try {
            boolean ended;
            if (ev.live()) {
                JOIN_LIVE.invokeExact(t, millis);
                ended = !t.isAlive();
                if (ended) {
                    RaceWatch.joined(t); // the thread's end orders it, which no event records
                }
            } else {
                ended = false;
            }
            if (ev.z(ended) && !ev.live()) {
                JOIN_LIVE.invokeExact(t, 0L);
            }
        } catch (Throwable e) {
            throw ev.threw(e);
        } finally {
            ev.end();
        }
    }

    /**
     * A new thread's id, drawn from a counter the JVM shares with Reprise's own and the JDK's
     * helper threads, is logged where the thread is constructed: replay gives it the recorded id,
     * so even an unstarted thread's id is as recorded (a virtual thread hashes by it, and an
     * executor keeps it in a hash set before starting it). JDK 17.
     */
    @Prologue(owner = "java/lang/Thread", method = "nextThreadID", desc = "()J", optional = true)
    public static long nextThreadId() throws Throwable {
        return newId(NEXT_THREAD_ID_LIVE);
    }

    /** JDK 19+: {@link #nextThreadId}. */
    @Prologue(owner = "java/lang/Thread$ThreadIdentifiers", method = "next", desc = "()J", optional = true)
    public static long nextIdentifier() throws Throwable {
        return newId(NEXT_IDENTIFIER_LIVE);
    }

    /** The event of a new thread's id, drawn live from the JDK's counter {@code live} when recording. */
    private static long newId(MethodHandle live) throws Throwable {
        Ev ev = Ev.begin(NEW_ID, 0, 0);
        try {
            return ev.j(ev.live() ? (long) live.invokeExact() : 0);
        } finally {
            ev.end();
        }
    }

    /**
     * A recorded thread's id is the one logged when it started ({@link #start}); others' are the
     * JVM's. It differs from the thread's own field only for a thread constructed outside the
     * program's recorded events (by the JDK's live work) and started by the program.
     */
    @Prologue(owner = "java/lang/Thread", method = "getId", desc = "()J")
    public static long getId(Thread t) throws Throwable {
        long id = Threads.recordedId(t);
        if (id < 0) {
            id = (long) ID_LIVE.invokeExact(t);
        }
        if (t == Thread.currentThread() && Rt.initializing()) {
            return initializerThreadId(id);
        }
        return id;
    }

    /**
     * The current thread's id asked in a class initializer's context: an event of the
     * initializer's stream. Replay runs the initializer on whichever thread uses the class first,
     * not necessarily the recording's, and gives it the recorded thread's id: an initializer that
     * keeps something by its thread's id (Jetty's {@code ThreadIdPool} puts its first item at
     * the slot the id names) leaves it where the recording's did.
     */
    private static long initializerThreadId(long id) {
        Ev ev = Ev.begin(INITIALIZER_ID, 0, 0);
        try {
            return ev.j(ev.live() ? id : 0);
        } finally {
            ev.end();
        }
    }

    /**
     * A thread's name is its own field, except the current thread's asked in a class
     * initializer's context, which is the recorded one for the reason {@link #getId} gives: an
     * initializer that logs, or names what it makes after its thread, prints the recording's
     * name on whichever thread the replay runs it. {@code toString} reads it here too.
     */
    @Prologue(owner = "java/lang/Thread", method = "getName", desc = "()Ljava/lang/String;")
    public static String getName(Thread t) throws Throwable {
        String name = (String) NAME_LIVE.invokeExact(t);
        if (t == Thread.currentThread() && Rt.initializing()) {
            Ev ev = Ev.begin(INITIALIZER_NAME, 0, 0);
            try {
                return ev.s(ev.live() ? name : null);
            } finally {
                ev.end();
            }
        }
        return name;
    }

    /** JDK 19+: {@code getId} as {@code threadId}. */
    @Prologue(owner = "java/lang/Thread", method = "threadId", desc = "()J", optional = true)
    public static long threadId(Thread t) throws Throwable {
        return getId(t);
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/Thread", method = "isAlive", desc = "()Z")
    public static boolean isAlive(Thread t, int site) {
        if (!Rt.claim()) {
            return t.isAlive();
        }
        Ev ev = Ev.begin(ALIVE, site, 0);
        try {
            return ev.z(ev.live() && t.isAlive());
        } finally {
            ev.end();
        }
    }

    /** A thread's state follows the scheduling of threads: a program waiting for one takes the recorded path. */
    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/Thread", method = "getState", desc = "()Ljava/lang/Thread$State;",
            programOnly = true)
    public static Thread.State getState(Thread t, int site) {
        if (!Rt.claim()) {
            return t.getState();
        }
        Ev ev = Ev.begin(STATE, site, 0);
        try {
            return STATES[ev.i(ev.live() ? t.getState().ordinal() : 0)];
        } finally {
            ev.end();
        }
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = "java/lang/Thread", method = "sleep", desc = "(J)V",
            alsoIn = {"java/util/concurrent/TimeUnit"})
    public static void sleep(long millis, int site) throws InterruptedException {
        if (!Rt.claim()) {
            Thread.sleep(millis);
            return;
        }
        Ev ev = Ev.begin(SLEEP, site, 0);
        try {
            if (ev.live()) {
                Thread.sleep(millis);
            }
        } catch (Throwable e) {
            throw ev.threw(e);
        } finally {
            ev.end();
        }
    }

    @CallSite(kind = CallSite.Kind.STATIC, owner = "java/lang/Thread", method = "sleep", desc = "(JI)V",
            alsoIn = {"java/util/concurrent/TimeUnit"})
    public static void sleepNanos(long millis, int nanos, int site) throws InterruptedException {
        if (nanos < 0 || nanos > 999_999) {
            Thread.sleep(millis, nanos); // let the JDK reject the argument
        }
        sleep(millis + (nanos > 0 ? 1 : 0), site);
    }

    @Prologue(owner = "java/lang/Thread", method = "interrupt", desc = "()V")
    public static void interrupt(Thread t) throws Throwable {
        Ev ev = Ordered.enter(INTERRUPT, 0, 0, t);
        try {
            if (ev.live()) {
                INTERRUPT_LIVE.invokeExact(t);
            } else {
                ChannelInterrupts.deliver(t);
            }
        } finally {
            Ordered.exit(ev);
        }
    }

    /**
     * A channel's {@code begin()} or {@code end()} (or a selector's) sets or clears the thread's
     * blocker, which an interrupt from another thread hands the interrupt to: ordered on the
     * thread as its interrupts are, so that a replay's interrupt finds the blocker the recorded
     * one found ({@link ChannelInterrupts}).
     */
    @Prologue(owner = "java/nio/channels/spi/AbstractInterruptibleChannel", method = "blockedOn",
            desc = "(Ljdk/internal/misc/Interruptible;)V", optional = true)
    public static void blockedOn(Object blocker) throws Throwable {
        blockedOnOrdered(blocker);
    }

    /** JDK 17's {@code blockedOn}, whose blocker is of {@code sun.nio.ch}. */
    @Prologue(owner = "java/nio/channels/spi/AbstractInterruptibleChannel", method = "blockedOn",
            desc = "(Lsun/nio/ch/Interruptible;)V", optional = true)
    public static void blockedOn17(Object blocker) throws Throwable {
        blockedOnOrdered(blocker);
    }

    private static void blockedOnOrdered(Object blocker) throws Throwable {
        if (SyncActions.quietNow()) {
            BLOCKED_ON_LIVE.invokeExact(blocker); // the JDK's own channel: live, no event
            Rt.release();
            return;
        }
        Ev ev = Ordered.enter(BLOCKED_ON, 0, 0, Thread.currentThread());
        try {
            BLOCKED_ON_LIVE.invokeExact(blocker);
        } finally {
            Ordered.exit(ev);
        }
    }

    @Prologue(owner = "java/lang/Thread", method = "isInterrupted", desc = "()Z")
    public static boolean isInterrupted(Thread t) throws Throwable {
        Ev ev = Ev.begin(INTERRUPTED, 0, 0);
        try {
            return ev.z(ev.live() && (boolean) IS_INTERRUPTED_LIVE.invokeExact(t));
        } finally {
            ev.end();
        }
    }

    @Prologue(owner = "java/lang/Thread", method = "interrupted", desc = "()Z")
    public static boolean interrupted() throws Throwable {
        Ev ev = Ev.begin(INTERRUPTED, 0, 1);
        try {
            return ev.z(ev.live() && (boolean) INTERRUPTED_LIVE.invokeExact());
        } finally {
            ev.end();
        }
    }
}
