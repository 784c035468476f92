package dev.reprise.agent.ops.classes;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;

import dev.reprise.agent.ops.Constructed;
import dev.reprise.agent.ops.Prologue;
import dev.reprise.agent.runtime.contexts.Cleanups;
import dev.reprise.agent.runtime.events.Rt;
import dev.reprise.agent.runtime.identity.IdentityHashes;
import dev.reprise.agent.runtime.jdk.JdkLoaders;
import dev.reprise.agent.runtime.jdk.JdkMethods;
import jdk.internal.access.JavaLangAccess;
import jdk.internal.access.SharedSecrets;

/**
 * The cleanups the collector sets off, where they run the program's code: a {@code finalize}
 * method of the program's classes, or a {@code Cleaner} action of its own, each run by a thread
 * Reprise does not record ({@link Cleanups}). So are the JDK's own cleanups in
 * {@code java.util.concurrent}: an executor from {@code Executors.newSingleThreadExecutor} that
 * the program drops shuts its pool down from the finalizer (JDK 17) or the common cleaner (from
 * JDK 21). Other JDK cleanups (a stream's file descriptor) act on the JVM's resources alone and
 * run as before.
 *
 * <p>Registration is hooked where the JDK makes what the cleanup's thread is later handed: the
 * finalizer's reference, made as the JVM registers a finalizable object on the thread that
 * allocates it, and a cleaner's cleanable. The cleanup itself is hooked where that thread runs it.
 */
public final class CleanupOps {
    private static final String FINALIZER = "java/lang/ref/Finalizer";
    private static final Class<?> FINALIZER_CLASS = JdkMethods.jdkClass(FINALIZER.replace('/', '.'));
    private static final MethodHandle RUN_FINALIZER = JdkMethods.special(FINALIZER_CLASS, "runFinalizer",
            MethodType.methodType(void.class, JavaLangAccess.class)).asType(MethodType.methodType(void.class, Object.class, Object.class));
    private static final MethodHandle CLEAN = JdkMethods.virtual(Cleaner.Cleanable.class, "clean", MethodType.methodType(void.class))
            .asType(MethodType.methodType(void.class, Object.class));
    private static final JavaLangAccess JLA = SharedSecrets.getJavaLangAccess();
    private static final VarHandle NEXT = JdkMethods.field(FINALIZER_CLASS, "next", FINALIZER_CLASS);
    private static final VarHandle PREV = JdkMethods.field(FINALIZER_CLASS, "prev", FINALIZER_CLASS);
    private static final VarHandle UNFINALIZED = JdkMethods.staticField(FINALIZER_CLASS, "unfinalized", FINALIZER_CLASS);
    private static final VarHandle ACTION = JdkMethods.field(JdkMethods.jdkClass("jdk.internal.ref.CleanerImpl$PhantomCleanableRef"),
            "action", Runnable.class);
    private static final Cleanups.Runner FINALIZE = new Finalize();
    private static final Cleanups.Runner CLEAN_UP = new Clean();

    private CleanupOps() {
    }

    /** Runs a finalizer's reference as the finalizer thread does: unlinked, its object's {@code finalize} called, cleared. */
    private static final class Finalize implements Cleanups.Runner {
        /**
         * Once its constructor linked it into the finalizer's list, which runFinalizer unlinks it
         * from: it is the list's head, or was and has a newer one before it.
         */
        @Override
        public boolean registered(Object finalizer) {
            return UNFINALIZED.getVolatile() == finalizer || PREV.getVolatile(finalizer) != null || NEXT.getVolatile(finalizer) != null;
        }

        @Override
        public void run(Object finalizer) throws Throwable {
            RUN_FINALIZER.invokeExact(finalizer, (Object) JLA);
        }
    }

    /** Runs a cleanable as a cleaner's thread does. */
    private static final class Clean implements Cleanups.Runner {
        /** Once its constructor stored the action, after the hook that keyed it. */
        @Override
        public boolean registered(Object cleanable) {
            return ACTION.getVolatile(cleanable) != null;
        }

        @Override
        public void run(Object cleanable) throws Throwable {
            CLEAN.invokeExact(cleanable);
        }
    }

    /** Whether a cleanup's code, of class {@code c}, is the program's, or one of java.util.concurrent's. */
    private static boolean runsProgramCode(Class<?> c) {
        return !JdkLoaders.isJdk(c.getClassLoader()) || c.getName().startsWith("java.util.concurrent.");
    }

    /**
     * Each registration hook holds the object the collector watches until its key is in place
     * ({@code reachabilityFence}): the JDK's reference to it is made before the hook runs, and
     * an object already unreachable (a cleaner's referent allocated for the call alone) could
     * otherwise have its cleanup handed to the JDK's thread before it had a key, and run
     * unrecorded.
     */
    @Constructed(owner = FINALIZER, desc = "(Ljava/lang/Object;)V")
    public static void finalizable(Object finalizer, Object finalizee) {
        if (Rt.claimable() && runsProgramCode(finalizee.getClass())) {
            Cleanups.register(finalizer, FINALIZE);
            Reference.reachabilityFence(finalizee);
        }
    }

    @Constructed(owner = "jdk/internal/ref/CleanerImpl$PhantomCleanableRef", desc = "(Ljava/lang/Object;Ljava/lang/ref/Cleaner;Ljava/lang/Runnable;)V")
    public static void cleanable(Object cleanable, Object referent, Cleaner cleaner, Runnable action) {
        if (Rt.claimable() && runsProgramCode(action.getClass())) {
            // The program holds the cleanable and may hash it: its value is given here, at the
            // same point on replay, before the key table hashes it.
            IdentityHashes.identityHashCode(cleanable);
            Cleanups.register(cleanable, CLEAN_UP);
            Reference.reachabilityFence(referent);
        }
    }

    @Prologue(owner = FINALIZER, method = "runFinalizer", desc = "(Ljdk/internal/access/JavaLangAccess;)V", kind = Prologue.Kind.UNRECORDED)
    public static boolean runFinalizer(Object finalizer, Object jla) throws Throwable {
        return run(finalizer, FINALIZE);
    }

    @Prologue(owner = "jdk/internal/ref/PhantomCleanable", method = "clean", desc = "()V", kind = Prologue.Kind.UNRECORDED)
    public static boolean clean(Object cleanable) throws Throwable {
        return run(cleanable, CLEAN_UP);
    }

    private static boolean run(Object target, Cleanups.Runner runner) throws Throwable {
        int how = Cleanups.enter(target);
        if (how == Cleanups.ENTERED) {
            try {
                runner.run(target);
            } finally {
                Cleanups.exit();
            }
        }
        return how != Cleanups.UNKEYED;
    }
}
