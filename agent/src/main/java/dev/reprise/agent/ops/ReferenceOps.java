package dev.reprise.agent.ops;

import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.SoftReference;
import java.lang.ref.WeakReference;

import dev.reprise.agent.runtime.Divergence;
import dev.reprise.agent.runtime.Ev;
import dev.reprise.agent.runtime.IdentityHashes;
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
    /** A poll or remove of a queue that returned nothing is counted; one that returned a reference writes its hash. */
    private static final Op POLL = Op.withRelaxedTwin("ref.queue.poll");
    /** Hook classes are initialized after the session starts. */
    private static final boolean RETAIN = Session.current().replaying();
    /** Replay: holders of retained referents, in a list of their own; a holder is unlinked once its reference is gone. */
    private static final Holder HOLDERS = new Holder(null, null, null);
    private static final ReferenceQueue<Reference<?>> GONE = new ReferenceQueue<>();
    /**
     * Replay: the program's references made with a queue, by identity hash, each bucket a chain
     * through {@link Queued#sameHash}; guarded by itself. Entries go when their poll is replayed,
     * or with their reference.
     */
    private static final java.util.HashMap<Integer, Queued> QUEUED = new java.util.HashMap<>();
    private static final ReferenceQueue<Reference<?>> GONE_QUEUED = new ReferenceQueue<>();

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

    /** Replay: a program's reference made with a queue, found by its identity hash when a recorded poll returned it. */
    private static final class Queued extends WeakReference<Reference<?>> {
        final int hash;
        final ReferenceQueue<?> queue;
        Queued sameHash;
        /** The reference itself, once the recording found its referent gone ({@link #pending}). */
        Reference<?> held;

        Queued(Reference<?> ref, int hash, ReferenceQueue<?> queue) {
            super(ref, GONE_QUEUED);
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
        if (RETAIN && (referent != null && program || hash != 0)) {
            // Reprise's own work: the queue's monitor is no event of the program.
            Rt.suppress();
            try {
                if (referent != null && program) {
                    retain(ref, referent);
                }
                if (hash != 0) {
                    enqueueable(ref, hash, queue);
                }
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

    private static void enqueueable(Reference<?> ref, int hash, ReferenceQueue<?> queue) {
        synchronized (QUEUED) {
            for (Reference<?> gone; (gone = GONE_QUEUED.poll()) != null; ) {
                unlink((Queued) gone);
            }
            Queued q = new Queued(ref, hash, queue);
            q.sameHash = QUEUED.put(hash, q);
        }
    }

    /** Holding {@link #QUEUED}'s lock: removes {@code q} from its hash's chain. */
    private static void unlink(Queued q) {
        Queued first = QUEUED.get(q.hash);
        if (first == q) {
            if (q.sameHash == null) {
                QUEUED.remove(q.hash);
            } else {
                QUEUED.put(q.hash, q.sameHash);
            }
            return;
        }
        for (Queued p = first; p != null; p = p.sameHash) {
            if (p.sameHash == q) {
                p.sameHash = q.sameHash;
                return;
            }
        }
    }

    /**
     * Replay: {@code ref}'s referent was gone in the recording, so its queue held it there until
     * polled, even once the program let go of it (a cache replaces a cleared entry): the table
     * now holds it strongly too, or the replay's collector would take it before its poll.
     */
    private static void pending(Reference<?> ref) {
        int hash = IdentityHashes.ifInHeader(ref); // given when constructed, if it has a queue
        if (hash == 0) {
            return;
        }
        Rt.suppress();
        try {
            synchronized (QUEUED) {
                for (Queued q = QUEUED.get(hash); q != null; q = q.sameHash) {
                    if (q.get() == ref) {
                        q.held = ref;
                        return;
                    }
                }
            }
        } finally {
            Rt.unsuppress();
        }
    }

    /** Replay: the reference of {@code hash} made with {@code queue}, taken out of the table; null if none. */
    private static Reference<?> dequeued(ReferenceQueue<?> queue, int hash) {
        Rt.suppress();
        try {
            synchronized (QUEUED) {
                for (Queued q = QUEUED.get(hash); q != null; q = q.sameHash) {
                    Reference<?> ref = q.get();
                    if (ref != null && q.queue == queue) {
                        unlink(q);
                        return ref;
                    }
                }
                return null;
            }
        } finally {
            Rt.unsuppress();
        }
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

    /** {@code poll()} for {@code timeout} -1, else {@code remove(timeout)}, 0 waiting for ever. */
    private static Reference<?> take(ReferenceQueue<?> queue, long timeout, int site) throws InterruptedException {
        if (!Rt.claim()) {
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
