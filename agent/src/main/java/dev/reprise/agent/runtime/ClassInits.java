package dev.reprise.agent.runtime;

/**
 * Static initializers of JDK classes. The JVM runs one on whichever thread first uses the class,
 * and Reprise's own work uses JDK classes at different moments when recording and when replaying,
 * so an initializer may run on another thread, or at another point, in a replay. Its events (the
 * common pool reading the processor count, a generator seeding itself from the clock) are
 * therefore kept in a stream of the class's own, read back by whichever thread runs the
 * initializer on replay. The initializer's context is quiet ({@link SyncActions#quiet}): the
 * objects it builds are not yet shared, and its ordering could not be matched with any thread's.
 *
 * <p>An initializer that runs inside an event, or on a thread that is not recorded, runs live as
 * before; so does one, on replay, that the recording holds no events for.
 */
public final class ClassInits {
    private ClassInits() {
    }

    /** Before the initializer of {@code className} (a JDK class, first loaded after start-up). */
    public static void enter(String className) {
        if (!Rt.active) {
            return;
        }
        ThreadCtx cur = Rt.current();
        if (cur == ThreadCtx.UNRECORDED) {
            return;
        }
        if (cur.depth != 0) {
            cur.depth++;
            return;
        }
        cur.depth = 1; // opening the stream reads and allocates: none of it is the program's
        ThreadCtx init = Session.current().openClassInit(className);
        cur.depth = 0;
        if (init == null) {
            cur.depth = 1;
            return;
        }
        init.outer = cur;
        Rt.swap(init);
    }

    /** After the initializer of {@code className}, also when it threw. */
    public static void exit(String className) {
        if (!Rt.active) {
            return;
        }
        ThreadCtx cur = Rt.current();
        if (cur == ThreadCtx.UNRECORDED) {
            return;
        }
        // The initializer's own context, or the one whose depth enter raised: an initializer does
        // not run twice, nor start another of the same class on its thread.
        if (className.equals(cur.initializing)) {
            Rt.swap(cur.outer);
        } else {
            cur.depth--;
        }
    }
}
