package dev.reprise.agent.runtime;

/**
 * Names recorded threads by creation path: main is {@code 1}, the third thread that main starts is
 * {@code 1.3}. Paths survive renaming and differ from thread ids, so replay matches threads
 * whatever names the program gives them. A thread is recorded when a recorded thread started it;
 * JVM-internal threads and Reprise's own are not.
 */
public final class Threads {
    private static final WeakIdentityTable<String> PATHS = new WeakIdentityTable<>();

    private Threads() {
    }

    /** Registers the thread that runs premain as the program's main thread. */
    static void registerMain(Thread t) {
        PATHS.put(t, "1");
    }

    /** Called by the parent before {@code child} starts; returns the child's path. */
    public static String registerChild(ThreadCtx parent, Thread child) {
        String path = parent.path + "." + (++parent.children);
        PATHS.put(child, path);
        return path;
    }

    static ThreadCtx contextForCurrentThread() {
        String path = PATHS.get(Thread.currentThread());
        Session s = Session.current();
        if (path == null || s == null) {
            return ThreadCtx.UNRECORDED;
        }
        return s.openThread(path);
    }
}
