package dev.reprise.agent.runtime.ordering;

import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.identity.IdentityHashes;

import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDesc;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The static field a {@code VarHandle} without coordinates reaches, named by the key its
 * {@code getstatic} and {@code putstatic} are ordered by ({@link SyncActions#enterStatic}): a
 * program commonly reads a static volatile field directly and updates it through a handle (a
 * compare-and-set), and both must be actions on one location, or a read could replay on the
 * wrong side of the update.
 *
 * <p>A handle is resolved once, from its own description ({@code describeConstable}, which names
 * the declaring class and field), so every way of making one is covered: {@code Lookup}'s
 * finders, {@code unreflectVarHandle}, a derived handle, a constant. Handles are compared by
 * identity in a small array, not a map, which would take their identity hashes
 * ({@link IdentityHashes}). Past {@link #MAX} handles a new one is resolved at each access:
 * slower, the same answer.
 */
final class StaticFieldHandles {
    /** Enough for any program's static handles, few enough to scan on each access. */
    private static final int MAX = 64;

    /** {@link #keyOf}'s answer for a handle that reaches no static field: no int key is this long. */
    static final long NO_FIELD = Long.MIN_VALUE;

    /** A resolved handle and its {@link #keyOf}. */
    private record Resolved(Object handle, long key) {
    }

    /** Copied on each addition; entries are immutable, so a reader sees each whole. */
    private static volatile Resolved[] resolved = new Resolved[0];

    private StaticFieldHandles() {
    }

    /** The handle's {@link SyncActions#staticFieldKey}, or {@link #NO_FIELD}: then the handle is its own location. */
    static long keyOf(Object handle) {
        Resolved r = find(resolved, handle);
        return (r != null ? r : add(handle)).key();
    }

    private static Resolved find(Resolved[] in, Object handle) {
        for (Resolved r : in) {
            if (r.handle == handle) {
                return r;
            }
        }
        return null;
    }

    /** Resolves a handle no entry has; two threads may race here, so it looks again under the lock. */
    private static synchronized Resolved add(Object handle) {
        Resolved[] now = resolved;
        Resolved r = find(now, handle);
        if (r != null) {
            return r;
        }
        r = resolve(handle);
        if (now.length < MAX) {
            Resolved[] next = Arrays.copyOf(now, now.length + 1);
            next[now.length] = r;
            resolved = next;
        }
        return r;
    }

    /**
     * The JDK finds the field by reflection: Reprise's work, whose synchronization is no event of
     * the program (its caches are filled differently when recording and when replaying).
     */
    private static Resolved resolve(Object handle) {
        Rt.suppress();
        try {
            Optional<VarHandle.VarHandleDesc> d = handle instanceof VarHandle h ? h.describeConstable() : Optional.empty();
            if (d.isPresent() && d.get().bootstrapMethod().methodName().equals("staticFieldVarHandle")) {
                List<ConstantDesc> args = d.get().bootstrapArgsList();
                String declarer = ((ClassDesc) args.get(0)).descriptorString();
                String internalName = declarer.substring(1, declarer.length() - 1);
                return new Resolved(handle, SyncActions.staticFieldKey(internalName, d.get().constantName()));
            }
            return new Resolved(handle, NO_FIELD);
        } finally {
            Rt.unsuppress();
        }
    }
}
