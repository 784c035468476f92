package dev.reprise.agent.runtime.identity;

import jdk.internal.vm.annotation.DontInline;

/**
 * Whether a class's instances hash by identity: it and its superclasses below Object and Enum
 * declare no {@code hashCode}. Asked about the keys of hash maps ({@link IdentityHashes#hashCode}),
 * so the answer sits in a table in front of the reflective one ({@link #BY_IDENTITY}, a
 * {@code ClassValue}: several dependent loads), by a hash of the class's name, held weakly so
 * that classes stay unloadable.
 */
final class IdentityVerdicts {
    /**
     * The key of every {@code ClassValue} in each class's map of values, a weak hash map of the
     * JDK's own: its hash decides only that map's bins, and it keeps the JVM's. Through the hook,
     * a class value's first lookup for a class at the program's depth (Reprise's own, of a
     * class's value or of these verdicts, under the program's first hash of that class) settled
     * the key's provisional value there ({@link ProvisionalHashes}), an event where the program
     * did nothing: a JDK class initializer that reflected on its own field then held one, which
     * it holds in no run without Reprise.
     */
    private static final String CLASS_VALUE_IDENTITY = "java.lang.ClassValue$Identity";

    private static final ClassValue<Boolean> BY_IDENTITY = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> c) {
            return hashesByIdentity(c);
        }
    };

    /**
     * Recent verdicts by a hash of the class's name. Not by the class's identity hash, which would
     * make the JVM hash hidden classes the program may hash. A slot holds an immutable verdict
     * (its flag final), so a racy read sees a whole one, or none; a class's verdict never
     * changes, so any verdict found for it is right.
     */
    private static final Verdict[] BY_NAME = new Verdict[1024];

    private static final class Verdict extends java.lang.ref.WeakReference<Class<?>> {
        final boolean byIdentity;

        Verdict(Class<?> c, boolean byIdentity) {
            super(c);
            this.byIdentity = byIdentity;
        }
    }

    private IdentityVerdicts() {
    }

    /**
     * Answers for the classes Reprise's own hashing meets, before instrumentation starts:
     * reflection run to answer {@link #hashesByIdentity} hashes these, and must not recurse into
     * itself.
     */
    static void prime(Class<?>... classes) {
        for (Class<?> c : classes) {
            BY_IDENTITY.get(c);
        }
    }

    /** Whether {@code c}'s instances hash by identity. */
    static boolean byIdentity(Class<?> c) {
        int i = c.getName().hashCode() & (BY_NAME.length - 1);
        Verdict v = BY_NAME[i];
        if (v != null && v.refersTo(c)) {
            return v.byIdentity;
        }
        Verdict w = BY_NAME[i ^ 1];
        return w != null && w.refersTo(c) ? w.byIdentity : newVerdict(c, i);
    }

    /**
     * A class met first, or again after others took its entries: into the first of its two slots
     * that is free (never used, or its class unloaded), else the first. Two classes whose names
     * share a slot keep an entry each; replacing one another at every request, they made a new
     * verdict and a {@code ClassValue} lookup each time (66 samples of this method per profiled
     * h2 run, BENCHMARKS.md at 3c15de8). Out of line, as {@link IdentityHashes#hashCode}'s slow
     * paths.
     */
    @DontInline
    private static boolean newVerdict(Class<?> c, int i) {
        boolean byIdentity = BY_IDENTITY.get(c);
        int slot = free(BY_NAME[i]) || !free(BY_NAME[i ^ 1]) ? i : i ^ 1;
        BY_NAME[slot] = new Verdict(c, byIdentity);
        return byIdentity;
    }

    private static boolean free(Verdict v) {
        return v == null || v.refersTo(null);
    }

    private static boolean hashesByIdentity(Class<?> c) {
        if (c.isArray()) {
            return true;
        }
        if (c.getName().equals(CLASS_VALUE_IDENTITY)) {
            return false;
        }
        for (Class<?> k = c; k != null && k != Object.class && k != Enum.class; k = k.getSuperclass()) {
            try {
                k.getDeclaredMethod("hashCode");
                return false;
            } catch (NoSuchMethodException e) {
                // not declared here: look further up
            }
        }
        return true;
    }
}
