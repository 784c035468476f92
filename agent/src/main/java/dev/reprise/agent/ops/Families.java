package dev.reprise.agent.ops;

import java.util.List;

import dev.reprise.agent.runtime.IdentityHashes;
import dev.reprise.agent.runtime.Session;

/** The hook classes: every intercepted operation is declared in one of these. */
public final class Families {
    public static final List<Class<?>> ALL = List.of(
            TimeOps.class,
            RandomOps.class,
            HashOps.class,
            EnvOps.class,
            ThreadOps.class,
            FileStreamOps.class);

    private Families() {
    }

    /** Runs before instrumentation: state the hooks need that must not itself be intercepted. */
    public static void prepare() {
        IdentityHashes.prime();
    }

    /** The main thread's first events: what the JVM fixed before the program started. */
    public static void startSession(Session session) throws Exception {
        StartupState.capture();
    }
}
