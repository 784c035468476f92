package dev.reprise.agent.runtime.session;

import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.events.Session;

import jdk.internal.access.SharedSecrets;

/**
 * Runs Reprise's exit work after the program's own shutdown hooks. The JDK runs its system
 * shutdown slots in order (the console restore in slot 0, application hooks in slot 1, delete-on-exit
 * in slot 2); Reprise takes a later slot so that events made by application hooks are recorded.
 */
public final class ExitHooks {
    private static final int SLOT = 7;

    private ExitHooks() {
    }

    /**
     * Runs {@link Session#finish} at exit, then {@code cacheWork}: the recording is complete
     * before anything that only saves later runs time. Called after {@code JdkAccess} opened
     * {@code jdk.internal.access} to the agent. A class, not a lambda or a method reference:
     * linking one spins classes, a millisecond of every start-up.
     */
    public static void install(Session session, Runnable cacheWork) {
        SharedSecrets.getJavaLangAccess().registerShutdownHook(SLOT, false, new Runnable() {
            @Override
            public void run() {
                Rt.suppress();
                session.finish();
                cacheWork.run();
            }
        });
    }
}
