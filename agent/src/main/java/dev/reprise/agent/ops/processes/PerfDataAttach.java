package dev.reprise.agent.ops.processes;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.Claimed;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.events.Session;
import dev.reprise.agent.runtime.jdk.JdkMethods;

/**
 * A JVM's performance data, read through jvmstat ({@code jdk.internal.perf.Perf.attach}): JDK 17's
 * attach asks it whether the target can be attached to, and monitoring tools read a JVM's
 * counters by it. The native maps the memory of the JVM whose pid it is given; the pid is the
 * recorded one, so on replay it names another process or none, and the JDK falls back to files
 * the replay does not have. An attach is an event. The program's own JVM (pid 0 or the recorded
 * JVM's pid) is mapped live on replay as the replaying JVM's own: its counters are the JVM's own
 * business, as its memory is. Another JVM's data is copied into the recording as the attach
 * mapped it, and a replay reads that copy: later changes the other JVM makes to its counters are
 * not seen.
 *
 * <p>The JDK detaches a mapping once its buffer is unreachable, on its cleaner's thread: no event.
 * A replay detaches nothing, since its buffers are its own JVM's memory, which the native never
 * unmaps, or copies, which it must not.
 */
public final class PerfDataAttach {
    private static final String PERF = "jdk/internal/perf/Perf";
    private static final Op ATTACH = Op.named("perf.attach");
    private static final Class<?> PERF_CLASS = JdkMethods.jdkClass(PERF.replace('/', '.'));
    private static final MethodHandle ATTACH_17 = live("attach", ByteBuffer.class, String.class, int.class, int.class);
    private static final MethodHandle ATTACH_25 = live("attach0", ByteBuffer.class, int.class);
    private static final MethodHandle DETACH = live("detach", void.class, ByteBuffer.class);

    private PerfDataAttach() {
    }

    /** The native with its receiver as an {@code Object}, or null on a JDK that does not declare it. */
    private static MethodHandle live(String name, Class<?> returned, Class<?>... params) {
        MethodHandle h = JdkMethods.virtualIfPresent(PERF_CLASS, name, MethodType.methodType(returned, params));
        return h == null ? null : h.asType(h.type().changeParameterType(0, Object.class));
    }

    /** JDK 17: {@code attach(user, lvmid, mode)}. */
    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = PERF, method = "attach",
            desc = "(Ljava/lang/String;II)Ljava/nio/ByteBuffer;", alsoIn = PERF)
    public static ByteBuffer attach(Object perf, String user, int lvmid, int mode) throws Throwable {
        return attach17(perf, user, lvmid, mode);
    }

    @Claimed(live = "ATTACH_17")
    private static ByteBuffer attach17(Object perf, String user, int lvmid, int mode) throws Throwable {
        Ev ev = Ev.begin(ATTACH, 0, lvmid);
        if (ev.live()) {
            return recorded(ev, lvmid, (ByteBuffer) ATTACH_17.invokeExact(perf, user, lvmid, mode));
        }
        return wasOwn(ev) ? (ByteBuffer) ATTACH_17.invokeExact(perf, user, 0, mode) : copy(ev);
    }

    /** JDK 25: {@code attach0(lvmid)}. */
    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = PERF, method = "attach0", desc = "(I)Ljava/nio/ByteBuffer;",
            alsoIn = PERF)
    public static ByteBuffer attach0(Object perf, int lvmid) throws Throwable {
        return attach25(perf, lvmid);
    }

    @Claimed(live = "ATTACH_25")
    private static ByteBuffer attach25(Object perf, int lvmid) throws Throwable {
        Ev ev = Ev.begin(ATTACH, 0, lvmid);
        if (ev.live()) {
            return recorded(ev, lvmid, (ByteBuffer) ATTACH_25.invokeExact(perf, lvmid));
        }
        return wasOwn(ev) ? (ByteBuffer) ATTACH_25.invokeExact(perf, 0) : copy(ev);
    }

    /** Codes whether the mapping is the JVM's own, and if not, its content. */
    private static ByteBuffer recorded(Ev ev, int lvmid, ByteBuffer mapped) {
        boolean own = lvmid == 0 || lvmid == ProcessHandle.current().pid();
        if (!ev.z(own)) {
            byte[] content = new byte[mapped.capacity()];
            mapped.duplicate().clear().get(content);
            ev.blob(content);
        }
        return mapped;
    }

    /** Replay: whether the recorded mapping was the JVM's own. */
    private static boolean wasOwn(Ev ev) {
        return ev.z(false);
    }

    /** Replay: another JVM's data as the recording's attach mapped it. */
    private static ByteBuffer copy(Ev ev) {
        byte[] content = ev.blob(null);
        return ByteBuffer.allocateDirect(content.length).put(content).clear();
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = PERF, method = "detach", desc = "(Ljava/nio/ByteBuffer;)V",
            alsoIn = PERF)
    public static void detach(Object perf, ByteBuffer mapped) throws Throwable {
        Session session = Session.current();
        if (session == null || !session.replaying()) {
            DETACH.invokeExact(perf, mapped);
        }
    }
}
