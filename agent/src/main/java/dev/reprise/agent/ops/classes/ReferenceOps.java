package dev.reprise.agent.ops.classes;

import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.SoftReference;
import java.lang.ref.WeakReference;

import dev.reprise.agent.ops.CallSite;
import dev.reprise.agent.ops.Constructed;
import dev.reprise.agent.runtime.events.Divergence;
import dev.reprise.agent.runtime.events.Ev;
import dev.reprise.agent.runtime.events.Op;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.events.Session;
import dev.reprise.agent.runtime.identity.IdentityHashes;
import dev.reprise.agent.runtime.jdk.JdkLoaders;
import dev.reprise.agent.runtime.jdk.JdkMethods;
import dev.reprise.agent.runtime.session.PolledReferences;

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
 *
 * <p>Which references the collector enqueues, and when, is the same nondeterminism seen through a
 * {@link ReferenceQueue}: maps with weak or soft entries poll their queue to expunge stale ones
 * (Groovy's and Guava's). A program's reference made with a queue is given its identity hash as
 * it is constructed, on record and on replay alike, so the value is the same in both; a poll
 * or remove that returns a reference writes that value ({@code ref.queue.poll}; one that returns
 * nothing is only counted). Replay does not look at the real queue: it returns the reference
 * of that value made with that queue, cleared, as the collector had left it.
 */
public final class ReferenceOps {
    /** A read that found its referent is counted ({@code ref.get.relaxed}); one that found it gone is written. */
    private static final Op GET = Op.withRelaxedTwin("ref.get");
    private static final Op REFERS_TO = Op.named("ref.refersto");
    /** A poll or remove of a queue that returned nothing is counted; one that returned a reference writes its hash. */
    private static final Op POLL = Op.withRelaxedTwin("ref.queue.poll");
    private static final Class<?> WEAK_MAP_ENTRY = JdkMethods.jdkClass("java.util.WeakHashMap$Entry");
    /** Hook classes are initialized after the session starts. */
    private static final boolean RETAIN = Session.current().replaying();
    /**
     * Replay: the head of the list of {@link Holder}s, which keeps each reachable; a holder is
     * unlinked once its reference is gone. Its monitor guards the list and {@link #BY_HASH}.
     */
    private static final Holder HOLDERS = new Holder(null, null, 0, null);
    private static final ReferenceQueue<Reference<?>> GONE = new ReferenceQueue<>();
    /** Replay: the holders of references made with a queue, by identity hash, each bucket a chain through {@link Holder#sameHash}. */
    private static final java.util.HashMap<Integer, Holder> BY_HASH = new java.util.HashMap<>();

    private ReferenceOps() {
    }

    /**
     * Replay: what Reprise keeps of one of the program's references. Its referent, strongly, while
     * the reference lives (null if none was retained); and, for a reference made with a queue,
     * the identity hash a recorded poll names it by ({@code hash}, 0 if none). Not a map keyed
     * by the reference: it would hash the reference, and an identity hash taken on replay only
     * would differ from the recording's ({@code IdentityHashes}). A holder's own class is
     * Reprise's, so making one is not retained.
     */
    private static final class Holder extends WeakReference<Reference<?>> {
        /**
         * Not named {@code referent}: with a field of that name here, the holder's own
         * {@code get()} returned it instead of the reference on JDK 17 (seen once the poll's
         * lookup called it).
         */
        @SuppressWarnings("unused") // held for reachability alone
        private final Object kept;
        private final int hash;
        private final ReferenceQueue<?> queue;
        private Holder sameHash;
        /** The reference itself, once the recording found its referent gone ({@link #pending}). */
        private Reference<?> held;
        private Holder prev = this;
        private Holder next = this;

        Holder(Reference<?> ref, Object referent, int hash, ReferenceQueue<?> queue) {
            super(ref, GONE);
            this.kept = referent;
            this.hash = hash;
            this.queue = queue;
        }
    }

    @Constructed(owner = "java/lang/ref/Reference", desc = "(Ljava/lang/Object;Ljava/lang/ref/ReferenceQueue;)V")
    public static void constructed(Reference<?> ref, Object referent, ReferenceQueue<?> queue) {
        Class<?> c = ref.getClass();
        boolean program = madeForProgram(c);
        // Hashed here, before Reprise's own work below, at a point of the program's own thread
        // that a replay reaches as its recording did: the value a poll writes is then the same.
        int hash = queue != null && (program || c == PhantomReference.class) && Rt.claimable()
                ? IdentityHashes.identityHashCode(ref) : 0;
        boolean retained = referent != null && program;
        if (RETAIN && (retained || hash != 0)) {
            // Reprise's own work: the queue's monitor is no event of the program.
            Rt.suppress();
            try {
                Holder h = new Holder(ref, retained ? referent : null, hash, queue);
                if (hash != 0 && PolledReferences.willBePolled(hash)) {
                    h.held = ref; // the recording's queue kept it until its poll, whatever the program did
                }
                hold(h);
            } finally {
                Rt.unsuppress();
            }
        }
    }

    /**
     * Whether a reference of class {@code c} is the program's: a plain weak or soft one, one of
     * the program's classes, or an entry of a {@code WeakHashMap} made in the program's own code
     * (not inside an event or the JDK's unordered work, where the JDK's maps are its business).
     */
    private static boolean madeForProgram(Class<?> c) {
        ClassLoader loader = c.getClassLoader();
        return c == WeakReference.class || c == SoftReference.class
                || !JdkLoaders.isJdk(loader) || c == WEAK_MAP_ENTRY && Rt.claimableInProgram();
    }

    private static void hold(Holder h) {
        synchronized (HOLDERS) {
            for (Reference<?> gone; (gone = GONE.poll()) != null; ) {
                Holder g = (Holder) gone;
                g.prev.next = g.next;
                g.next.prev = g.prev;
                if (g.hash != 0) {
                    unhash(g);
                }
            }
            h.next = HOLDERS.next;
            h.prev = HOLDERS;
            HOLDERS.next.prev = h;
            HOLDERS.next = h;
            if (h.hash != 0) {
                h.sameHash = BY_HASH.put(h.hash, h);
            }
        }
    }

    /** Holding {@link #HOLDERS}'s lock: removes {@code h} from its hash's chain, if it is there. */
    private static void unhash(Holder h) {
        Holder first = BY_HASH.get(h.hash);
        if (first == h) {
            if (h.sameHash == null) {
                BY_HASH.remove(h.hash);
            } else {
                BY_HASH.put(h.hash, h.sameHash);
            }
            return;
        }
        for (Holder p = first; p != null; p = p.sameHash) {
            if (p.sameHash == h) {
                p.sameHash = h.sameHash;
                return;
            }
        }
    }

    /**
     * Replay: {@code ref}'s referent was gone in the recording, so its queue held it there until
     * polled, even once the program let go of it (a cache replaces a cleared entry): its holder
     * now holds it strongly too, or the replay's collector would take it before its poll.
     */
    private static void pending(Reference<?> ref) {
        int hash = IdentityHashes.ifHashed(ref); // given when constructed, if it has a queue
        if (hash == 0) {
            return;
        }
        Rt.suppress();
        try {
            synchronized (HOLDERS) {
                for (Holder h = BY_HASH.get(hash); h != null; h = h.sameHash) {
                    if (h.get() == ref) {
                        h.held = ref;
                        return;
                    }
                }
            }
        } finally {
            Rt.unsuppress();
        }
    }

    /** Replay: the reference of {@code hash} made with {@code queue}, taken out of the hash chains; null if none. */
    private static Reference<?> dequeued(ReferenceQueue<?> queue, int hash) {
        Rt.suppress();
        try {
            synchronized (HOLDERS) {
                for (Holder h = BY_HASH.get(hash); h != null; h = h.sameHash) {
                    Reference<?> ref = h.get();
                    if (ref != null && h.queue == queue) {
                        unhash(h);
                        h.held = null;
                        return ref;
                    }
                }
                return null;
            }
        } finally {
            Rt.unsuppress();
        }
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/ref/Reference", method = "get", desc = "()Ljava/lang/Object;",
            programOnly = true, inherited = true)
    public static Object get(Reference<?> ref, int site) {
        return read(ref, site);
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/ref/WeakReference", method = "get", desc = "()Ljava/lang/Object;",
            programOnly = true)
    public static Object getWeak(WeakReference<?> ref, int site) {
        return read(ref, site);
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/ref/SoftReference", method = "get", desc = "()Ljava/lang/Object;",
            programOnly = true, inherited = true)
    public static Object getSoft(SoftReference<?> ref, int site) {
        return read(ref, site);
    }

    /**
     * {@code refersTo}, which asks, as {@code get} does, whether the collector cleared the referent
     * ({@code refersTo(null)}), without keeping it alive: the recorded answer. Called on the type
     * the program names, so each reference class is a hook of its own.
     */
    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/ref/Reference", method = "refersTo",
            desc = "(Ljava/lang/Object;)Z", programOnly = true)
    public static boolean refersTo(Reference<Object> ref, Object o, int site) {
        return refers(ref, o, site);
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/ref/WeakReference", method = "refersTo",
            desc = "(Ljava/lang/Object;)Z", programOnly = true)
    public static boolean weakRefersTo(WeakReference<Object> ref, Object o, int site) {
        return refers(ref, o, site);
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/ref/SoftReference", method = "refersTo",
            desc = "(Ljava/lang/Object;)Z", programOnly = true)
    public static boolean softRefersTo(SoftReference<Object> ref, Object o, int site) {
        return refers(ref, o, site);
    }

    private static boolean refers(Reference<Object> ref, Object o, int site) {
        if (!claim(ref)) {
            return ref.refersTo(o);
        }
        Ev ev = Ev.begin(REFERS_TO, site, 0);
        try {
            return ev.z(ev.live() && ref.refersTo(o));
        } finally {
            ev.end();
        }
    }

    /**
     * Claims a read of {@code ref}: a {@code WeakHashMap}'s entry only in the program's own code,
     * as its maps are the program's only there ({@link #madeForProgram}). A program's subclass
     * may carry Reprise's override of the method, which asks {@link Rt#claimable}: its reads are
     * claimed as that asks, or an unclaimed read would call the override again.
     */
    private static boolean claim(Reference<?> ref) {
        return ref.getClass() == WEAK_MAP_ENTRY ? Rt.claimInProgram() : Rt.claim();
    }

    private static Object read(Reference<?> ref, int site) {
        if (!claim(ref)) {
            return ref.get();
        }
        Ev ev = Ev.begin(GET, site, 0);
        try {
            Object referent = ref.get();
            // A written read codes true: formats 1 and 2 wrote every read, coding whether it
            // found the referent gone, and replay reads them the same way.
            if (!ev.counted(referent != null) && ev.z(true)) {
                if (RETAIN) {
                    pending(ref);
                }
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

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/ref/ReferenceQueue", method = "poll",
            desc = "()Ljava/lang/ref/Reference;", programOnly = true)
    public static Reference<?> poll(ReferenceQueue<?> queue, int site) throws InterruptedException {
        return take(queue, -1, site);
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/ref/ReferenceQueue", method = "remove",
            desc = "()Ljava/lang/ref/Reference;", programOnly = true)
    public static Reference<?> remove(ReferenceQueue<?> queue, int site) throws InterruptedException {
        return take(queue, 0, site);
    }

    @CallSite(kind = CallSite.Kind.VIRTUAL, owner = "java/lang/ref/ReferenceQueue", method = "remove",
            desc = "(J)Ljava/lang/ref/Reference;", programOnly = true)
    public static Reference<?> removeWithin(ReferenceQueue<?> queue, long timeout, int site) throws InterruptedException {
        return take(queue, timeout, site);
    }

    /**
     * {@code poll()} for {@code timeout} -1, else {@code remove(timeout)}, 0 waiting for ever.
     * Claimed in the program's own code alone: the JDK's unordered work polls the queues of its
     * own weak maps, whose entries are not the program's ({@link #madeForProgram}).
     */
    private static Reference<?> take(ReferenceQueue<?> queue, long timeout, int site) throws InterruptedException {
        if (!Rt.claimInProgram()) {
            return timeout < 0 ? queue.poll() : queue.remove(timeout);
        }
        Ev ev = Ev.begin(POLL, site, 0);
        try {
            Reference<?> live = !ev.live() ? null : timeout < 0 ? queue.poll() : queue.remove(timeout);
            if (ev.counted(live == null)) {
                return null;
            }
            // A reference enqueued on record carries the hash it was given when constructed.
            int hash = ev.i(live == null ? 0 : IdentityHashes.identityHashCode(live));
            if (ev.recording()) {
                PolledReferences.polled(hash);
                return live;
            }
            Reference<?> ref = dequeued(queue, hash);
            if (ref == null) {
                Divergence.mismatch("poll of a reference queue",
                        "the recorded run's collector enqueued a reference the replay has no record of");
            }
            ref.clear();
            return ref;
        } catch (Throwable t) {
            throw ev.threw(t);
        } finally {
            ev.end();
        }
    }
}
