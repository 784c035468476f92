package dev.reprise.agent.ops;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.SoftReference;
import java.lang.ref.WeakReference;

import dev.reprise.agent.runtime.Divergence;
import dev.reprise.agent.runtime.Ev;
import dev.reprise.agent.runtime.JdkLoaders;
import dev.reprise.agent.runtime.Op;
import dev.reprise.agent.runtime.Rt;
import dev.reprise.agent.runtime.Session;

/**
 * The collector's nondeterminism as the program sees it: whether a weak or soft reference still
 * has its referent when read depends on when collections ran. Each read ({@code get} called on a
 * {@code Reference}, {@code WeakReference} or {@code SoftReference}) logs whether the referent was
 * gone: a read that found it is only counted, as programs read their caches' references far
 * more often than the collector clears one. The JDK's own reads (its reflection caches, thread
 * locals) are not the program's and run live. Replay returns null where the recording found it
 * gone, whatever its own collector did.
 *
 * <p>The reverse, a referent the replay's collector took while the recording's still had it,
 * could not be brought back: so on replay, a reference made for the program (a plain
 * {@code WeakReference} or {@code SoftReference}, or a subclass of the program's) keeps its
 * referent strongly reachable for as long as the reference itself lives. A replay may thus hold
 * more memory than its recording did. A read that still finds the referent gone stops the replay
 * with a report.
 */
public final class ReferenceOps {
    /** A read that found its referent is counted ({@code ref.get.relaxed}); one that found it gone is written. */
    private static final Op GET = Op.withRelaxedTwin("ref.get");
    /** Hook classes are initialized after the session starts. */
    private static final boolean RETAIN = Session.current().replaying();
    /** Replay: holders of retained referents, in a list of their own; a holder is unlinked once its reference is gone. */
    private static final Holder HOLDERS = new Holder(null, null, null);
    private static final ReferenceQueue<Reference<?>> GONE = new ReferenceQueue<>();

    private ReferenceOps() {
    }

    /**
     * Keeps a referent strongly reachable while its reference lives. Not a map: it would hash
     * the reference, and an identity hash taken on replay only would differ from the recording's
     * ({@code IdentityHashes}). A holder's own class is Reprise's, so making one is not retained.
     */
    private static final class Holder extends WeakReference<Reference<?>> {
        @SuppressWarnings("unused") // held for reachability alone
        private final Object referent;
        private Holder prev = this;
        private Holder next = this;

        Holder(Reference<?> ref, Object referent, ReferenceQueue<Reference<?>> queue) {
            super(ref, queue);
            this.referent = referent;
        }
    }

    @Constructed(owner = "java/lang/ref/Reference", desc = "(Ljava/lang/Object;Ljava/lang/ref/ReferenceQueue;)V")
    public static void constructed(Reference<?> ref, Object referent, ReferenceQueue<?> queue) {
        if (RETAIN && referent != null && madeForProgram(ref.getClass())) {
            // Reprise's own work: the queue's monitor is no event of the program.
            Rt.suppress();
            try {
                retain(ref, referent);
            } finally {
                Rt.unsuppress();
            }
        }
    }

    private static boolean madeForProgram(Class<?> c) {
        ClassLoader loader = c.getClassLoader();
        return c == WeakReference.class || c == SoftReference.class
                || !JdkLoaders.isJdk(loader);
    }

    private static void retain(Reference<?> ref, Object referent) {
        Holder h = new Holder(ref, referent, GONE);
        synchronized (HOLDERS) {
            for (Reference<?> gone; (gone = GONE.poll()) != null; ) {
                Holder g = (Holder) gone;
                g.prev.next = g.next;
                g.next.prev = g.prev;
            }
            h.next = HOLDERS.next;
            h.prev = HOLDERS;
            HOLDERS.next.prev = h;
            HOLDERS.next = h;
        }
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/ref/Reference", method = "get", desc = "()Ljava/lang/Object;",
            programOnly = true)
    public static Object get(Reference<?> ref, int site) {
        return read(ref, site);
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/ref/WeakReference", method = "get", desc = "()Ljava/lang/Object;",
            programOnly = true)
    public static Object getWeak(WeakReference<?> ref, int site) {
        return read(ref, site);
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/ref/SoftReference", method = "get", desc = "()Ljava/lang/Object;",
            programOnly = true)
    public static Object getSoft(SoftReference<?> ref, int site) {
        return read(ref, site);
    }

    private static Object read(Reference<?> ref, int site) {
        if (!Rt.claim()) {
            return ref.get();
        }
        Ev ev = Ev.begin(GET, site, 0);
        try {
            Object referent = ref.get();
            // A written read codes true: formats 1 and 2 wrote every read, coding whether it
            // found the referent gone, and replay reads them the same way.
            if (!ev.counted(referent != null) && ev.z(true)) {
                return null;
            }
            if (referent == null) {
                Divergence.mismatch("read of a " + ref.getClass().getName(),
                        "the collector cleared a referent that the recorded run still had");
            }
            return referent;
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }
}
