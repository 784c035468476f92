package dev.reprise.agent.runtime;

import java.lang.reflect.Method;

/**
 * Runs Reprise's exit work after the program's own shutdown hooks. The JDK runs its system
 * shutdown slots in order (the console restore in slot 0, application hooks in slot 1, delete-on-exit
 * in slot 2); Reprise takes a later slot so that events made by application hooks are recorded.
 */
public final class ExitHooks {
    private static final int SLOT = 7;

    private ExitHooks() {
    }

    public static void install(Runnable work) throws ReflectiveOperationException {
        Class<?> secrets = Class.forName("jdk.internal.access.SharedSecrets");
        Object jla = secrets.getMethod("getJavaLangAccess").invoke(null);
        Method register = Class.forName("jdk.internal.access.JavaLangAccess")
                .getMethod("registerShutdownHook", int.class, boolean.class, Runnable.class);
        register.invoke(jla, SLOT, false, new Runnable() {
            @Override
            public void run() {
                Rt.suppress();
                work.run();
            }
        });
    }
}
